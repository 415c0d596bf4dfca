// Intentionally empty: Swift Testing looks for a cross-import overlay named
// `_Testing_CoreGraphics` whenever a module named `CoreGraphics` is imported beside it.
// The Linux toolchain does not ship one, so this module stands in for it.
