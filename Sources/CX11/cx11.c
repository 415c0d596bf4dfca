// Dumb wrappers over Xlib and MIT-SHM. See cx11.h for the contract of each function.
#define _GNU_SOURCE
#include "cx11.h"
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/Xpresent.h>
#include <X11/extensions/Xfixes.h>
#include <X11/Xresource.h>
#include <sys/eventfd.h>
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <stdint.h>
#include <pthread.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cx11_display {
    Display *dpy;
    long errors_total;
    long errors_unsynced;
    struct cx11_display *next;
    Atom wm_protocols, wm_delete, net_wm_ping, net_wm_name, utf8_string;
    int shm_event_base;
    int has_shm;
    int shm_pixmaps;
    int present_opcode;
};

static cx11_display *cx11_displays = NULL;
// Guards the display list and the error ring: windows may live on several threads.
static pthread_mutex_t cx11_lock = PTHREAD_MUTEX_INITIALIZER;

static void cx11_display_count_error(Display *dpy) {
    for (cx11_display *d = cx11_displays; d; d = d->next)
        if (d->dpy == dpy) { d->errors_total++; d->errors_unsynced++; }
}

struct cx11_image {
    XImage *ximage;
    XShmSegmentInfo shm;
    int is_shm;
    uint32_t *plain;
    Pixmap pixmap;
};

// Xlib's error handler is per process: errors of every display land in one ring, tagged with
// their display, and each display takes its own.
#define CX11_ERROR_RING 64
static struct { Display *dpy; cx11_error error; } cx11_errors[CX11_ERROR_RING];
static int cx11_error_head = 0, cx11_error_len = 0;

static int cx11_on_error(Display *dpy, XErrorEvent *ev) {
    pthread_mutex_lock(&cx11_lock);
    int slot = (cx11_error_head + cx11_error_len) % CX11_ERROR_RING;
    if (cx11_error_len == CX11_ERROR_RING) cx11_error_head = (cx11_error_head + 1) % CX11_ERROR_RING;
    else cx11_error_len++;
    cx11_errors[slot].dpy = dpy;
    cx11_errors[slot].error = (cx11_error){ ev->error_code, ev->request_code, ev->minor_code, ev->resourceid, ev->serial };
    cx11_display_count_error(dpy);
    pthread_mutex_unlock(&cx11_lock);
    return 0;
}

static int cx11_on_io_error(Display *dpy) {
    (void)dpy;
    fprintf(stderr, "X11Host: lost the connection to the X server; exiting.\n");
    _exit(1);
    return 0;
}

int cx11_shim_version(void) { return 3; }

cx11_display *cx11_open(const char *name) {
    XSetErrorHandler(cx11_on_error);
    XSetIOErrorHandler(cx11_on_io_error);
    Display *dpy = XOpenDisplay(name);
    if (!dpy) return NULL;
    cx11_display *d = calloc(1, sizeof *d);
    if (!d) { XCloseDisplay(dpy); return NULL; }
    d->dpy = dpy;
    pthread_mutex_lock(&cx11_lock);
    d->next = cx11_displays;
    cx11_displays = d;
    pthread_mutex_unlock(&cx11_lock);
    d->wm_protocols = XInternAtom(dpy, "WM_PROTOCOLS", False);
    d->wm_delete = XInternAtom(dpy, "WM_DELETE_WINDOW", False);
    d->net_wm_ping = XInternAtom(dpy, "_NET_WM_PING", False);
    d->net_wm_name = XInternAtom(dpy, "_NET_WM_NAME", False);
    d->utf8_string = XInternAtom(dpy, "UTF8_STRING", False);
    int major, minor; Bool pixmaps;
    d->has_shm = XShmQueryVersion(dpy, &major, &minor, &pixmaps) ? 1 : 0;
    d->shm_pixmaps = d->has_shm && pixmaps && XShmPixmapFormat(dpy) == ZPixmap;
    d->shm_event_base = XShmGetEventBase(dpy);
    return d;
}

void cx11_close(cx11_display *d) {
    if (!d) return;
    Display *closed = d->dpy;   // compared below as an address only, never used
    pthread_mutex_lock(&cx11_lock);
    for (cx11_display **p = &cx11_displays; *p; p = &(*p)->next)
        if (*p == d) { *p = d->next; break; }
    // Drop the closed display's records (a later display may reuse the pointer).
    int kept = 0;
    for (int i = 0; i < cx11_error_len; i++) {
        int slot = (cx11_error_head + i) % CX11_ERROR_RING;
        if (cx11_errors[slot].dpy != closed) cx11_errors[(cx11_error_head + kept++) % CX11_ERROR_RING] = cx11_errors[slot];
    }
    cx11_error_len = kept;
    pthread_mutex_unlock(&cx11_lock);
    XCloseDisplay(closed);
    free(d);
}

int cx11_fd(cx11_display *d) { return ConnectionNumber(d->dpy); }

int cx11_depth(cx11_display *d) {
    int depth = DefaultDepth(d->dpy, DefaultScreen(d->dpy));
    return (depth == 24 || depth == 32) ? depth : 0;
}

int cx11_has_shm(cx11_display *d) { return d->has_shm; }

const char *cx11_display_name(const char *name) { return XDisplayName(name); }

double cx11_resource_dpi(cx11_display *d) {
    char *resources = XResourceManagerString(d->dpy);
    if (!resources) return 0;
    XrmInitialize();
    XrmDatabase db = XrmGetStringDatabase(resources);
    if (!db) return 0;
    char *type = NULL;
    XrmValue value;
    double dpi = 0;
    if (XrmGetResource(db, "Xft.dpi", "Xft.Dpi", &type, &value) && value.addr) dpi = atof(value.addr);
    XrmDestroyDatabase(db);
    return dpi;
}

unsigned long cx11_create_window(cx11_display *d, int width, int height, const char *title,
                                 const char *res_name, const char *res_class) {
    int screen = DefaultScreen(d->dpy);
    XSetWindowAttributes attrs;
    memset(&attrs, 0, sizeof attrs);
    attrs.background_pixel = BlackPixel(d->dpy, screen);
    attrs.event_mask = ExposureMask | StructureNotifyMask | ButtonPressMask | ButtonReleaseMask |
                       PointerMotionMask | KeyPressMask | KeyReleaseMask;
    Window w = XCreateWindow(d->dpy, RootWindow(d->dpy, screen), 0, 0, (unsigned)width, (unsigned)height, 0,
                             CopyFromParent, InputOutput, CopyFromParent, CWBackPixel | CWEventMask, &attrs);
    if (!w) return 0;
    Atom protocols[2] = { d->wm_delete, d->net_wm_ping };
    XSetWMProtocols(d->dpy, w, protocols, 2);
    XSizeHints hints;
    memset(&hints, 0, sizeof hints);
    hints.flags = PMinSize;
    hints.min_width = 1; hints.min_height = 1;
    XSetWMNormalHints(d->dpy, w, &hints);
    XClassHint class_hint = { (char *)res_name, (char *)res_class };
    XSetClassHint(d->dpy, w, &class_hint);
    long pid = (long)getpid();
    XChangeProperty(d->dpy, w, XInternAtom(d->dpy, "_NET_WM_PID", False), XA_CARDINAL, 32, PropModeReplace,
                    (const unsigned char *)&pid, 1);
    char host[256] = {0};
    if (gethostname(host, sizeof host - 1) == 0) {
        XTextProperty machine = { (unsigned char *)host, XA_STRING, 8, strlen(host) };
        XSetWMClientMachine(d->dpy, w, &machine);
    }
    cx11_set_title(d, w, title);
    XMapWindow(d->dpy, w);
    XFlush(d->dpy);
    return (unsigned long)w;
}

void cx11_destroy_window(cx11_display *d, unsigned long w) { XDestroyWindow(d->dpy, (Window)w); XFlush(d->dpy); }

void cx11_set_title(cx11_display *d, unsigned long w, const char *title) {
    XTextProperty legacy;
    char *list[1] = { (char *)title };
    if (Xutf8TextListToTextProperty(d->dpy, list, 1, XStdICCTextStyle, &legacy) >= Success) {
        XSetWMName(d->dpy, (Window)w, &legacy);
        XSetWMIconName(d->dpy, (Window)w, &legacy);
        XFree(legacy.value);
    }
    XChangeProperty(d->dpy, (Window)w, d->net_wm_name, d->utf8_string, 8, PropModeReplace,
                    (const unsigned char *)title, (int)strlen(title));
}

void cx11_flush(cx11_display *d) { XFlush(d->dpy); }

int cx11_sync_errors(cx11_display *d) {
    XSync(d->dpy, False);
    pthread_mutex_lock(&cx11_lock);
    int n = (int)d->errors_unsynced;
    d->errors_unsynced = 0;
    pthread_mutex_unlock(&cx11_lock);
    return n;
}

int cx11_take_errors(cx11_display *d, cx11_error *out, int max) {
    pthread_mutex_lock(&cx11_lock);
    int taken = 0, kept = 0;
    for (int i = 0; i < cx11_error_len; i++) {
        int slot = (cx11_error_head + i) % CX11_ERROR_RING;
        if (cx11_errors[slot].dpy == d->dpy && taken < max) out[taken++] = cx11_errors[slot].error;
        else cx11_errors[(cx11_error_head + kept++) % CX11_ERROR_RING] = cx11_errors[slot];
    }
    cx11_error_len = kept;
    pthread_mutex_unlock(&cx11_lock);
    return taken;
}

long cx11_error_total(cx11_display *d) {
    pthread_mutex_lock(&cx11_lock);
    long n = d->errors_total;
    pthread_mutex_unlock(&cx11_lock);
    return n;
}

void cx11_error_text(cx11_display *d, int code, char *buf, int len) { XGetErrorText(d->dpy, code, buf, len); }

void cx11_request_name(cx11_display *d, int request_code, char *buf, int len) {
    char number[16];
    snprintf(number, sizeof number, "%d", request_code);
    XGetErrorDatabaseText(d->dpy, "XRequest", number, number, buf, len);
}

int cx11_wake_create(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
void cx11_wake_signal(int fd) { uint64_t one = 1; ssize_t n = write(fd, &one, sizeof one); (void)n; }
void cx11_wake_drain(int fd) { uint64_t v; ssize_t n = read(fd, &v, sizeof v); (void)n; }
void cx11_wake_close(int fd) { if (fd >= 0) close(fd); }

extern int _dispatch_get_main_queue_handle_4CF(void);
int cx11_main_queue_fd(void) { return _dispatch_get_main_queue_handle_4CF(); }

unsigned cx11_wait(const int *fds, int count, long long timeout_ns) {
    struct pollfd p[8];
    if (count > 8) count = 8;
    for (int i = 0; i < count; i++) { p[i].fd = fds[i]; p[i].events = POLLIN; p[i].revents = 0; }
    struct timespec ts = { (time_t)(timeout_ns / 1000000000LL), (long)(timeout_ns % 1000000000LL) };
    int n = ppoll(p, (nfds_t)count, timeout_ns < 0 ? NULL : &ts, NULL);
    unsigned mask = 0;
    if (n > 0) for (int i = 0; i < count; i++) if (p[i].revents) mask |= 1u << i;
    return mask;
}

int cx11_pending(cx11_display *d) { return XPending(d->dpy); }

void cx11_next_event(cx11_display *d, unsigned long window, cx11_event *out) {
    XEvent ev;
    XNextEvent(d->dpy, &ev);
    memset(out, 0, sizeof *out);
    out->type = CX11_OTHER;
    out->window = (unsigned long)ev.xany.window;
    switch (ev.type) {
    case ButtonPress:
    case ButtonRelease:
        out->type = ev.type == ButtonPress ? CX11_BUTTON_PRESS : CX11_BUTTON_RELEASE;
        out->x = ev.xbutton.x; out->y = ev.xbutton.y;
        out->button = (int)ev.xbutton.button; out->state = ev.xbutton.state;
        break;
    case MotionNotify:
        out->type = CX11_MOTION;
        out->x = ev.xmotion.x; out->y = ev.xmotion.y; out->state = ev.xmotion.state;
        break;
    case KeyPress:
    case KeyRelease: {
        out->type = ev.type == KeyPress ? CX11_KEY_PRESS : CX11_KEY_RELEASE;
        KeySym sym = 0;
        int n = XLookupString(&ev.xkey, out->text, sizeof out->text - 1, &sym, NULL);
        out->text[n > 0 ? n : 0] = 0;
        out->keysym = (unsigned long)sym;
        out->state = ev.xkey.state;
        out->x = ev.xkey.x; out->y = ev.xkey.y;
        break;
    }
    case DestroyNotify:
        out->type = CX11_DESTROY;
        out->window = (unsigned long)ev.xdestroywindow.window;
        break;
    case ConfigureNotify:
        out->type = CX11_CONFIGURE;
        out->width = ev.xconfigure.width; out->height = ev.xconfigure.height;
        break;
    case Expose:
        out->type = CX11_EXPOSE;
        out->x = ev.xexpose.x; out->y = ev.xexpose.y;
        out->width = ev.xexpose.width; out->height = ev.xexpose.height;
        break;
    case ClientMessage:
        if ((Atom)ev.xclient.data.l[0] == d->wm_delete) {
            out->type = CX11_CLOSE;
        } else if ((Atom)ev.xclient.data.l[0] == d->net_wm_ping) {
            ev.xclient.window = RootWindow(d->dpy, DefaultScreen(d->dpy));
            XSendEvent(d->dpy, ev.xclient.window, False, SubstructureNotifyMask | SubstructureRedirectMask, &ev);
        }
        break;
    case GenericEvent:
        if (d->present_opcode && ev.xcookie.extension == d->present_opcode && XGetEventData(d->dpy, &ev.xcookie)) {
            if (ev.xcookie.evtype == PresentCompleteNotify) {
                XPresentCompleteNotifyEvent *c = ev.xcookie.data;
                out->type = CX11_PRESENT_COMPLETE;
                out->msc = c->msc; out->ust = c->ust; out->serial = c->serial_number;
                out->window = (unsigned long)c->window;
            } else if (ev.xcookie.evtype == PresentIdleNotify) {
                XPresentIdleNotifyEvent *i = ev.xcookie.data;
                out->type = CX11_PRESENT_IDLE;
                out->drawable = (unsigned long)i->pixmap;
                out->window = (unsigned long)i->window;
            }
            XFreeEventData(d->dpy, &ev.xcookie);
        }
        break;
    default:
        if (d->has_shm && ev.type == d->shm_event_base + ShmCompletion) {
            out->type = CX11_SHM_COMPLETION;
            out->drawable = (unsigned long)((XShmCompletionEvent *)&ev)->shmseg;
        }
        break;
    }
    (void)window;
}

cx11_image *cx11_image_create(cx11_display *d, int width, int height, int use_shm) {
    int screen = DefaultScreen(d->dpy);
    Visual *visual = DefaultVisual(d->dpy, screen);
    int depth = DefaultDepth(d->dpy, screen);
    cx11_image *img = calloc(1, sizeof *img);
    if (!img) return NULL;
    if (use_shm) {
        if (!d->has_shm) { free(img); return NULL; }
        img->ximage = XShmCreateImage(d->dpy, visual, (unsigned)depth, ZPixmap, NULL, &img->shm,
                                      (unsigned)width, (unsigned)height);
        if (!img->ximage) { free(img); return NULL; }
        size_t size = (size_t)img->ximage->bytes_per_line * (size_t)height;
        img->shm.shmid = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
        if (img->shm.shmid < 0) { XDestroyImage(img->ximage); free(img); return NULL; }
        img->shm.shmaddr = img->ximage->data = shmat(img->shm.shmid, NULL, 0);
        // Marked for removal at once: from here no kill can leave the segment behind (Linux lets
        // the server attach a marked segment while we hold it).
        shmctl(img->shm.shmid, IPC_RMID, NULL);
        if (img->shm.shmaddr == (char *)-1) {
            img->ximage->data = NULL; XDestroyImage(img->ximage); free(img); return NULL;
        }
        img->shm.readOnly = False;
        cx11_sync_errors(d);
        XShmAttach(d->dpy, &img->shm);
        int errors = cx11_sync_errors(d);   // attach failures arrive asynchronously as BadAccess
        if (errors) {
            XShmDetach(d->dpy, &img->shm);   // in case the attach took and another request failed
            cx11_sync_errors(d);
            shmdt(img->shm.shmaddr);
            img->ximage->data = NULL; XDestroyImage(img->ximage); free(img); return NULL;
        }
        img->is_shm = 1;
        return img;
    }
    img->plain = calloc((size_t)width * (size_t)height, 4);
    if (!img->plain) { free(img); return NULL; }
    img->ximage = XCreateImage(d->dpy, visual, (unsigned)depth, ZPixmap, 0, (char *)img->plain,
                               (unsigned)width, (unsigned)height, 32, width * 4);
    if (!img->ximage) { free(img->plain); free(img); return NULL; }
    return img;
}

void cx11_image_destroy(cx11_display *d, cx11_image *img) {
    if (!img) return;
    if (img->pixmap) XFreePixmap(d->dpy, img->pixmap);
    if (img->is_shm) {
        XShmDetach(d->dpy, &img->shm);
        XSync(d->dpy, False);
        shmdt(img->shm.shmaddr);
    }
    img->ximage->data = NULL;
    XDestroyImage(img->ximage);
    free(img->plain);
    free(img);
}

uint32_t *cx11_image_pixels(cx11_image *img) { return (uint32_t *)img->ximage->data; }
int cx11_image_stride(cx11_image *img) { return img->ximage->bytes_per_line; }
int cx11_image_is_shm(cx11_image *img) { return img->is_shm; }
unsigned long cx11_image_shmseg(cx11_image *img) { return img->is_shm ? (unsigned long)img->shm.shmseg : 0; }

void cx11_image_put(cx11_display *d, unsigned long w, cx11_image *img, int x, int y, int width, int height) {
    GC gc = DefaultGC(d->dpy, DefaultScreen(d->dpy));
    if (img->is_shm) {
        XShmPutImage(d->dpy, (Window)w, gc, img->ximage, x, y, x, y, (unsigned)width, (unsigned)height, True);
    } else {
        XPutImage(d->dpy, (Window)w, gc, img->ximage, x, y, x, y, (unsigned)width, (unsigned)height);
    }
    XFlush(d->dpy);
}

int cx11_present_init(cx11_display *d, unsigned long window) {
    int opcode, event, error, major = 1, minor = 0, fixes_event, fixes_error;
    if (!XPresentQueryExtension(d->dpy, &opcode, &event, &error)) return 0;
    if (!XPresentQueryVersion(d->dpy, &major, &minor) || major < 1) return 0;
    if (!XFixesQueryExtension(d->dpy, &fixes_event, &fixes_error)) return 0;
    int fixes_major = 2, fixes_minor = 0;
    XFixesQueryVersion(d->dpy, &fixes_major, &fixes_minor);
    d->present_opcode = opcode;
    XPresentSelectInput(d->dpy, (Window)window, PresentCompleteNotifyMask | PresentIdleNotifyMask);
    return 1;
}

int cx11_image_attach_pixmap(cx11_display *d, unsigned long window, cx11_image *img) {
    if (!img->is_shm || !d->shm_pixmaps) return 0;
    cx11_sync_errors(d);
    img->pixmap = XShmCreatePixmap(d->dpy, (Window)window, img->shm.shmaddr, &img->shm,
                                   (unsigned)img->ximage->width, (unsigned)img->ximage->height,
                                   (unsigned)img->ximage->depth);
    if (cx11_sync_errors(d) || !img->pixmap) { if (img->pixmap) XFreePixmap(d->dpy, img->pixmap); img->pixmap = 0; return 0; }
    return 1;
}

unsigned long cx11_image_pixmap(cx11_image *img) { return (unsigned long)img->pixmap; }

void cx11_present_image(cx11_display *d, unsigned long w, cx11_image *img, unsigned serial,
                        int x, int y, int width, int height, unsigned long long target_msc) {
    XRectangle r = { (short)x, (short)y, (unsigned short)width, (unsigned short)height };
    XserverRegion update = XFixesCreateRegion(d->dpy, &r, 1);
    XPresentPixmap(d->dpy, (Window)w, img->pixmap, serial, None, update, 0, 0, None, None, None,
                   PresentOptionNone, target_msc, 0, 0, NULL, 0);
    XFixesDestroyRegion(d->dpy, update);
    XFlush(d->dpy);
}

void cx11_present_notify(cx11_display *d, unsigned long w, unsigned serial, unsigned long long target_msc) {
    XPresentNotifyMSC(d->dpy, (Window)w, serial, target_msc, 0, 0);
    XFlush(d->dpy);
}

int cx11_read_window(cx11_display *d, unsigned long w, int x, int y, int width, int height, uint32_t *out) {
    XImage *img = XGetImage(d->dpy, (Window)w, x, y, (unsigned)width, (unsigned)height, AllPlanes, ZPixmap);
    if (!img) return -1;
    for (int row = 0; row < height; row++)
        for (int col = 0; col < width; col++)
            out[row * width + col] = (uint32_t)XGetPixel(img, col, row);
    XDestroyImage(img);
    return 0;
}

void cx11_send_delete(cx11_display *d, unsigned long w) {
    XEvent ev;
    memset(&ev, 0, sizeof ev);
    ev.xclient.type = ClientMessage;
    ev.xclient.window = (Window)w;
    ev.xclient.message_type = d->wm_protocols;
    ev.xclient.format = 32;
    ev.xclient.data.l[0] = (long)d->wm_delete;
    ev.xclient.data.l[1] = CurrentTime;
    XSendEvent(d->dpy, (Window)w, False, NoEventMask, &ev);
    XFlush(d->dpy);
}
