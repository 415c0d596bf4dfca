import CoreGraphics
import CX11
import Foundation
import LayerRender

/// Two window-sized images the compositor renders into and X shows.
///
/// Shared memory when the server offers it (no copy: the compositor writes straight into the
/// segment), else plain XPutImage. With the Present extension and shared-memory pixmaps, frames
/// are shown tear-free at a vblank (XPresentPixmap) and a buffer is free again at its
/// PresentIdleNotify; otherwise XShmPutImage, and a buffer is free at its ShmCompletion.
/// Segments are removed right after attach, so none outlives the process even on SIGKILL.
final class Presenter {
    private let display: OpaquePointer
    private let window: UInt
    private(set) var width: Int
    private(set) var height: Int
    private var images: [OpaquePointer] = []
    private var busy: [Bool] = []
    /// When each busy buffer was handed to the server (seconds of media time).
    private var busySince: [Double] = []
    /// Whether shared memory is in use (false after a fallback).
    private(set) var usesSharedMemory: Bool
    /// Whether frames are shown with Present (tear-free, at vblanks).
    private(set) var usesPresent = false
    /// The buffer the window shows (the last one put), nil before the first frame or after a resize.
    private var shown: Int?
    /// Pixels put by the last present (for tests and diagnostics).
    private(set) var lastPutArea = 0
    /// Per buffer, the pixels that changed since it was last brought up to date.
    private var stale: [PixelBox] = []

    init?(display: OpaquePointer, window: UInt, width: Int, height: Int, preferSharedMemory: Bool) {
        self.display = display; self.window = window
        self.width = width; self.height = height
        self.usesSharedMemory = preferSharedMemory && cx11_has_shm(display) != 0
        guard allocate() else { return nil }
        usesPresent = usesSharedMemory && cx11_present_init(display, window) != 0 && attachPixmaps()
    }

    /// Gives every buffer its server pixmap (Present shows pixmaps); false when one fails.
    private func attachPixmaps() -> Bool {
        images.allSatisfy { cx11_image_attach_pixmap(display, window, $0) != 0 }
    }

    deinit { release() }

    private func allocate() -> Bool {
        for _ in 0..<2 {
            var img = cx11_image_create(display, Int32(width), Int32(height), usesSharedMemory ? 1 : 0)
            if img == nil && usesSharedMemory {
                // SHM failed (remote display, attach refused, no segments left): fall back for good.
                usesSharedMemory = false
                release()
                return allocate()
            }
            if img == nil { img = nil; release(); return false }
            images.append(img!)
            busy.append(false)
            busySince.append(0)
            stale.append(PixelBox(x0: 0, y0: 0, x1: width, y1: height))
        }
        return true
    }

    private func release() {
        if busy.contains(true) { _ = cx11_sync_errors(display) }
        for img in images { cx11_image_destroy(display, img) }
        images = []
        busy = []
        busySince = []
        stale = []
    }

    /// Rebuilds the buffers for a new window size. Shared memory refused at the new size falls
    /// back to XPutImage (`allocate`); when not even plain buffers can be had, the old size is
    /// kept — frames fill the window's top-left, not a blank window — and the failure is counted
    /// (`.invalidBitmapSize`).
    func resize(width w: Int, height h: Int) {
        guard w != width || h != height, w > 0, h > 0 else { return }
        shown = nil
        release()
        let old = (width, height)
        width = w; height = h
        if !allocate() {
            CGDiagnostics.record(.invalidBitmapSize)
            (width, height) = old
            _ = allocate()
        }
        if usesPresent && !(usesSharedMemory && attachPixmaps()) { usesPresent = false }
    }

    /// True when `acquire()` would hand out a buffer.
    var hasFreeBuffer: Bool { busy.indices.contains { !busy[$0] && $0 != shown } }

    /// A free buffer to render into — never the one on screen, which the next frame is compared
    /// with — or nil while the other is still being read by the server.
    func acquire() -> (index: Int, target: RenderTarget)? {
        guard let i = busy.indices.first(where: { !busy[$0] && $0 != shown }) else { return nil }
        let img = images[i]
        let target = RenderTarget(pixels: cx11_image_pixels(img), width: width, height: height,
                                  stride: Int(cx11_image_stride(img)) / 4)
        return (i, target)
    }

    /// Brings buffer `index` up to date with the renderer's bitmap `source`, whose last frame
    /// repainted `damage`: copies only what changed since this buffer last held a frame.
    func refresh(_ index: Int, from source: RenderTarget, damage: PixelBox) {
        for i in stale.indices { stale[i] = stale[i].union(damage) }
        let img = images[index]
        let target = RenderTarget(pixels: cx11_image_pixels(img), width: width, height: height,
                                  stride: Int(cx11_image_stride(img)) / 4)
        target.copy(stale[index], from: source)
        stale[index] = .empty
    }

    /// Tints `box` of buffer `index` yellow (a debug flash); the buffer gets its true pixels back
    /// the next time it is brought up to date.
    func flash(_ index: Int, box: PixelBox) {
        let img = images[index]
        let area = box.intersection(PixelBox(x0: 0, y0: 0, x1: width, y1: height))
        guard !area.isEmpty, let pixels = cx11_image_pixels(img) else { return }
        let stride = Int(cx11_image_stride(img)) / 4
        for y in area.y0..<area.y1 {
            let row = pixels + y * stride
            for x in area.x0..<area.x1 { row[x] = ((row[x] >> 1) & 0x7F7F7F) | 0xFF80_8000 }
        }
        stale[index] = stale[index].union(area)
    }

    /// Shows buffer `index`: only the rectangle that differs from the frame on screen (searched
    /// inside `within`, the frame's damage), unless `full` (after an expose or resize). Nothing is
    /// put when the frames are identical; returns whether something was. With Present, `serial`
    /// comes back in the PresentCompleteNotify of the vblank that shows it, the first whose counter
    /// reaches `targetMSC` (0: the next).
    @discardableResult
    func present(_ index: Int, full: Bool, within: PixelBox? = nil, serial: UInt32 = 0, targetMSC: UInt64 = 0) -> Bool {
        let img = images[index]
        var box = (x0: 0, y0: 0, x1: width, y1: height)
        if !full, let previous = shown, previous != index {
            guard let d = difference(index, previous, within: within) else { shown = index; lastPutArea = 0; return false }
            box = d
        }
        lastPutArea = (box.x1 - box.x0) * (box.y1 - box.y0)
        if usesPresent {
            cx11_present_image(display, window, img, serial, Int32(box.x0), Int32(box.y0),
                               Int32(box.x1 - box.x0), Int32(box.y1 - box.y0), targetMSC)
            busy[index] = true
        } else {
            cx11_image_put(display, window, img, Int32(box.x0), Int32(box.y0), Int32(box.x1 - box.x0), Int32(box.y1 - box.y0))
            if cx11_image_is_shm(img) != 0 { busy[index] = true }
        }
        busySince[index] = CACurrentMediaTime()
        shown = index
        return true
    }

    /// The bounding box of the pixels where buffers `a` and `b` differ; nil when identical.
    /// A straight memory comparison: rows that match are skipped with memcmp.
    private func difference(_ a: Int, _ b: Int, within: PixelBox?) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        let pa = cx11_image_pixels(images[a])!, pb = cx11_image_pixels(images[b])!
        let stride = Int(cx11_image_stride(images[a])) / 4
        let area = (within ?? PixelBox(x0: 0, y0: 0, x1: width, y1: height)).intersection(PixelBox(x0: 0, y0: 0, x1: width, y1: height))
        guard !area.isEmpty else { return nil }
        var x0 = width, y0 = height, x1 = 0, y1 = 0
        for y in area.y0..<area.y1 {
            let ra = pa + y * stride, rb = pb + y * stride
            if memcmp(ra + area.x0, rb + area.x0, (area.x1 - area.x0) * 4) == 0 { continue }
            var l = area.x0
            while l < area.x1 && ra[l] == rb[l] { l += 1 }
            var r = area.x1
            while r > l && ra[r - 1] == rb[r - 1] { r -= 1 }
            x0 = min(x0, l); x1 = max(x1, r)
            if y0 == height { y0 = y }
            y1 = y + 1
        }
        return x1 > x0 ? (x0, y0, x1, y1) : nil
    }

    /// Marks the buffer of shared-memory segment `segment` as free again.
    func completed(segment: UInt) {
        for (i, img) in images.enumerated() where cx11_image_shmseg(img) == segment { busy[i] = false }
    }

    /// Marks the buffer whose pixmap is `pixmap` as free again (PresentIdleNotify).
    func idle(pixmap: UInt) {
        for (i, img) in images.enumerated() where cx11_image_pixmap(img) == pixmap { busy[i] = false }
    }

    /// True when no buffer is free and the one held longest has been with the server over `limit` seconds.
    func busyLongerThan(_ limit: Double, now: Double) -> Bool {
        !hasFreeBuffer && busy.indices.contains { busy[$0] && now - busySince[$0] > limit }
    }

    /// Stops using Present (the server stopped answering): the buffers it may still read are
    /// dropped and new ones made; later frames go through XShmPutImage.
    func stopPresenting() {
        usesPresent = false
        shown = nil
        release()
        _ = allocate()
    }
}
