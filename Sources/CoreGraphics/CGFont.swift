import Foundation

/// A font face named by family or PostScript name, resolved through fontconfig.
///
/// Linux: a handle on a name (what text layers need to pick a face); glyph-level access is not
/// provided. Names fontconfig does not know resolve to its closest match, as Pango does.
public final class CGFont: @unchecked Sendable {   // immutable after init
    /// The name the font was created with.
    public let postScriptName: CFString?
    /// The full name (the name given: matching happens when text is laid out).
    public let fullName: CFString?

    /// Creates a font from a family or PostScript name; nil for an empty name.
    public init?(_ name: CFString) {
        let s = name as String
        guard !s.isEmpty else { return nil }
        postScriptName = name
        fullName = s as NSString
    }

    /// The family name text layout asks fontconfig for.
    package var familyName: String { postScriptName.map { $0 as String } ?? "Helvetica" }
}
