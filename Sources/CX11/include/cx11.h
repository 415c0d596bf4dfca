#ifndef CX11_H
#define CX11_H
// C shim over Xlib and MIT-SHM. Prefixed `cx11_`; dumb by design: every policy decision
// (when to use SHM, how to react to errors, timing) is made in Swift (X11Host).
#include <stdint.h>
#include <stddef.h>

typedef struct cx11_display cx11_display;
typedef struct cx11_image cx11_image;

/// Version of the shim API, for Swift to check it was built against this header.
int cx11_shim_version(void);

/// Opens the display named by `name` (NULL: $DISPLAY). Installs error handlers that record
/// (instead of exiting on) protocol errors, and an I/O error handler that prints one line and
/// exits with status 1. Returns NULL when the display cannot be opened.
cx11_display *cx11_open(const char *name);
void cx11_close(cx11_display *d);
/// The connection's file descriptor (for poll).
int cx11_fd(cx11_display *d);
/// Depth and bits per pixel of the default visual's 32-bit-friendly format; 0 when unsupported.
int cx11_depth(cx11_display *d);
/// 1 when the MIT-SHM extension is available on this connection.
int cx11_has_shm(cx11_display *d);

/// The display name Xlib would connect to for `name` (NULL: $DISPLAY), for error messages.
const char *cx11_display_name(const char *name);
/// The `Xft.dpi` resource of the screen (from the RESOURCE_MANAGER property), 0 when unset.
double cx11_resource_dpi(cx11_display *d);

/// Creates and maps a top-level window of `width` × `height` with WM_DELETE_WINDOW and
/// _NET_WM_PING protocols, a minimum size of 1 × 1, WM_CLASS (`res_name`, `res_class`),
/// _NET_WM_PID and WM_CLIENT_MACHINE. Returns the window id (0 on failure).
unsigned long cx11_create_window(cx11_display *d, int width, int height, const char *title,
                                 const char *res_name, const char *res_class);
void cx11_destroy_window(cx11_display *d, unsigned long w);
/// Sets the title from UTF-8: _NET_WM_NAME as UTF8_STRING, and WM_NAME/WM_ICON_NAME as STRING
/// when the text is Latin-1, else COMPOUND_TEXT (so legacy readers see no mojibake).
void cx11_set_title(cx11_display *d, unsigned long w, const char *title);
void cx11_flush(cx11_display *d);
/// XSync; returns the number of protocol errors recorded for `d` since the last call (the
/// records stay available to cx11_take_errors).
int cx11_sync_errors(cx11_display *d);

/// One X protocol error as the server reported it.
typedef struct {
    int error_code;      // BadWindow, BadAccess, ...
    int request_code;    // major opcode of the failed request
    int minor_code;      // minor opcode (extension requests)
    unsigned long resource;
    unsigned long serial;
} cx11_error;

/// Moves up to `max` of the errors recorded for `d` (oldest first) into `out`; returns how many.
/// The shim keeps the last 64 per process; older ones are dropped (their count stays in
/// cx11_error_total).
int cx11_take_errors(cx11_display *d, cx11_error *out, int max);
/// Errors recorded for `d` since it was opened.
long cx11_error_total(cx11_display *d);
/// Xlib's text for an error code (XGetErrorText).
void cx11_error_text(cx11_display *d, int code, char *buf, int len);
/// The name of a core request or extension opcode (XGetErrorDatabaseText "XRequest"), or its number.
void cx11_request_name(cx11_display *d, int request_code, char *buf, int len);

/// An eventfd another thread can signal to wake a wait (-1 on failure).
int cx11_wake_create(void);
void cx11_wake_signal(int fd);
/// Clears a wake fd's pending signals.
void cx11_wake_drain(int fd);
void cx11_wake_close(int fd);
/// The file descriptor libdispatch signals when DispatchQueue.main has work (Linux), or -1.
int cx11_main_queue_fd(void);
/// Waits until one of `fds` is readable or `timeout_ns` passes (ppoll; negative: no limit).
/// Returns a bit mask of the readable fds (bit i for fds[i]), 0 on timeout or interruption.
unsigned cx11_wait(const int *fds, int count, long long timeout_ns);

/// Event kinds delivered to Swift.
enum {
    CX11_NONE = 0, CX11_BUTTON_PRESS, CX11_BUTTON_RELEASE, CX11_MOTION, CX11_KEY_PRESS, CX11_KEY_RELEASE,
    CX11_CONFIGURE, CX11_EXPOSE, CX11_CLOSE, CX11_SHM_COMPLETION, CX11_DESTROY,
    CX11_PRESENT_COMPLETE, CX11_PRESENT_IDLE, CX11_OTHER
};

typedef struct {
    int type;
    int x, y;            // pointer position (window pixels) or expose origin
    int width, height;   // configure size or expose size
    int button;          // 1 left, 2 middle, 3 right, 4/5 wheel up/down, 6/7 wheel left/right
    unsigned int state;  // modifier and button mask
    unsigned long keysym;
    unsigned long drawable; // SHM completion: the segment; Present idle: the pixmap
    unsigned long long msc; // Present complete: the vblank counter when the frame was shown
    unsigned long long ust; // Present complete: that vblank's time (microseconds, CLOCK_MONOTONIC)
    unsigned serial;     // Present complete: the serial given to the request
    unsigned long window; // the window the event is for
    char text[8];        // UTF-8 of a key press, when any
} cx11_event;

/// Number of events waiting (without blocking).
int cx11_pending(cx11_display *d);
/// Reads the next event (blocks if none); answers _NET_WM_PING itself and reports it as OTHER.
void cx11_next_event(cx11_display *d, unsigned long window, cx11_event *out);

/// Creates an image of `width` × `height` in the window's 32-bit BGRX layout. With `use_shm`,
/// the pixels live in a SysV segment attached to the server, and the segment is marked for
/// removal right after the server attached (no segment survives the process, even on SIGKILL);
/// on any SHM failure NULL is returned. Without `use_shm`, plain memory is used (XPutImage).
cx11_image *cx11_image_create(cx11_display *d, int width, int height, int use_shm);
void cx11_image_destroy(cx11_display *d, cx11_image *img);
/// The pixels (rows of cx11_image_stride bytes, premultiplied BGRA/BGRX words).
uint32_t *cx11_image_pixels(cx11_image *img);
int cx11_image_stride(cx11_image *img);
int cx11_image_is_shm(cx11_image *img);
/// Puts a rectangle of the image at the same place in the window. For SHM images a completion
/// event is requested (CX11_SHM_COMPLETION); the buffer must not be written until it arrives.
void cx11_image_put(cx11_display *d, unsigned long w, cx11_image *img, int x, int y, int width, int height);
/// The segment id of an SHM image (matches CX11_SHM_COMPLETION's drawable field), 0 otherwise.
unsigned long cx11_image_shmseg(cx11_image *img);

/// Turns on the Present extension for `window`: 1 when the server has Present 1.0+ and XFixes,
/// the window then receives CX11_PRESENT_COMPLETE and CX11_PRESENT_IDLE; 0 otherwise.
int cx11_present_init(cx11_display *d, unsigned long window);
/// Gives an SHM image a server pixmap on the same segment (for cx11_present_image); 1 on success.
int cx11_image_attach_pixmap(cx11_display *d, unsigned long window, cx11_image *img);
/// The image's pixmap (0 without one): matches CX11_PRESENT_IDLE's drawable.
unsigned long cx11_image_pixmap(cx11_image *img);
/// Shows the image's pixmap in the window at the first vblank whose counter is at least
/// `target_msc` (0: the next one), updating only (x, y, width, height): tear-free. The buffer must
/// not be written until CX11_PRESENT_IDLE names its pixmap; CX11_PRESENT_COMPLETE reports the vblank.
void cx11_present_image(cx11_display *d, unsigned long w, cx11_image *img, unsigned serial,
                        int x, int y, int width, int height, unsigned long long target_msc);
/// Asks for a CX11_PRESENT_COMPLETE at the first vblank whose counter is at least `target_msc`.
void cx11_present_notify(cx11_display *d, unsigned long w, unsigned serial, unsigned long long target_msc);

/// Reads back `width` × `height` pixels of the window at (x, y) into `out` (rows of width words).
int cx11_read_window(cx11_display *d, unsigned long w, int x, int y, int width, int height, uint32_t *out);

/// Sends the window the WM_DELETE_WINDOW message a window manager sends when the user closes it.
void cx11_send_delete(cx11_display *d, unsigned long w);

#endif
