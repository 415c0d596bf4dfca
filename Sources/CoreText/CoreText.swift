// The CoreText module: the subset of Apple's Core Text that layer code draws text with
// (fonts, attributed lines and frames), laid out by Pango and drawn by cairo.
// `import CoreText` gives CoreGraphics and Foundation too, as on Apple systems.
@_exported import CoreGraphics
