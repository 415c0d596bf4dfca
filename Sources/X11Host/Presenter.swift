import CX11
import Foundation
import LayerRender

/// Two window-sized images the compositor renders into and X shows.
///
/// Shared memory when the server offers it (no copy: the compositor writes straight into the
/// segment), else plain XPutImage. A buffer is written only after the server reported
/// (ShmCompletion) that it finished reading it. Segments are removed right after attach, so none
/// outlives the process even on SIGKILL.
final class Presenter {
    private let display: OpaquePointer
    private let window: UInt
    private(set) var width: Int
    private(set) var height: Int
    private var images: [OpaquePointer] = []
    private var busy: [Bool] = []
    /// Whether shared memory is in use (false after a fallback).
    private(set) var usesSharedMemory: Bool

    init?(display: OpaquePointer, window: UInt, width: Int, height: Int, preferSharedMemory: Bool) {
        self.display = display; self.window = window
        self.width = width; self.height = height
        self.usesSharedMemory = preferSharedMemory && cx11_has_shm(display) != 0
        guard allocate() else { return nil }
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
        }
        return true
    }

    private func release() {
        if busy.contains(true) { _ = cx11_sync_errors(display) }
        for img in images { cx11_image_destroy(display, img) }
        images = []
        busy = []
    }

    /// Rebuilds the buffers for a new window size.
    func resize(width w: Int, height h: Int) {
        guard w != width || h != height, w > 0, h > 0 else { return }
        release()
        width = w; height = h
        _ = allocate()
    }

    /// A free buffer to render into, or nil while both are still being read by the server.
    func acquire() -> (index: Int, target: RenderTarget)? {
        guard let i = busy.firstIndex(of: false) else { return nil }
        let img = images[i]
        let target = RenderTarget(pixels: cx11_image_pixels(img), width: width, height: height,
                                  stride: Int(cx11_image_stride(img)) / 4)
        return (i, target)
    }

    /// Shows buffer `index` (the rectangle `rect`, in pixels).
    func present(_ index: Int, x: Int = 0, y: Int = 0, width w: Int? = nil, height h: Int? = nil) {
        let img = images[index]
        cx11_image_put(display, window, img, Int32(x), Int32(y), Int32(w ?? width), Int32(h ?? height))
        if cx11_image_is_shm(img) != 0 { busy[index] = true }
    }

    /// Marks the buffer of shared-memory segment `segment` as free again.
    func completed(segment: UInt) {
        for (i, img) in images.enumerated() where cx11_image_shmseg(img) == segment { busy[i] = false }
    }
}
