import Foundation
import QuartzCore

/// Something the user did in a `LayerWindow`, with the layer it happened on.
///
/// `location` is in the root layer's superlayer space (window points, origin top-left, y down);
/// `layer` is the front-most **model** layer under the pointer as it is seen on screen (hit
/// testing runs on the presentation tree, so a moving layer is hit where it is drawn).
public struct LayerEvent {
    /// What happened.
    public enum Kind: Equatable {
        /// A mouse button went down (1 left, 2 middle, 3 right).
        case mouseDown(button: Int)
        /// A mouse button came up.
        case mouseUp(button: Int)
        /// The pointer moved with no button held.
        case mouseMoved
        /// The pointer moved with a button held.
        case mouseDragged
        /// The wheel turned: dy > 0 scrolls down, dx > 0 scrolls right (in wheel steps).
        case scroll(dx: CGFloat, dy: CGFloat)
        /// A key went down: its X keysym and the text it types (may be empty).
        case keyDown(keysym: UInt, text: String)
        /// A key came up.
        case keyUp(keysym: UInt)
    }

    /// What happened.
    public var kind: Kind
    /// Where, in window points.
    public var location: CGPoint
    /// The model layer under the pointer (nil outside every layer, and for keys).
    public var layer: CALayer?
}

/// X keysyms the gallery and apps commonly need.
public enum KeySym {
    /// ←
    public static let left: UInt = 0xFF51
    /// →
    public static let right: UInt = 0xFF53
    /// ↑
    public static let up: UInt = 0xFF52
    /// ↓
    public static let down: UInt = 0xFF54
    /// Escape
    public static let escape: UInt = 0xFF1B
    /// Space bar
    public static let space: UInt = 0x0020
    /// Home
    public static let home: UInt = 0xFF50
    /// End
    public static let end: UInt = 0xFF57
    /// Page Up
    public static let pageUp: UInt = 0xFF55
    /// Page Down
    public static let pageDown: UInt = 0xFF56
    /// Return
    public static let returnKey: UInt = 0xFF0D
}
