// CATextLayer: Apple's defaults (36-point Helvetica, opaque white, unwrapped, natural alignment),
// the first line at the top, wrapping, alignment and truncation measured from the ink, CJK text
// falling back to a Chinese font, attributed runs, contentsScale, animation and bad input.
@testable import QuartzCore
import LayerRender
import TestSupport
import Testing
import Foundation

@Suite(.serialized) struct CATextLayerTests {
    let black = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    static let seedParagraph = "辣椒开始的法律监督减肥了空间阿里的开发价值,。春夏女快放假了哦 i 将凯迪拉克你的,v来肯德基法拉第健身房"

    /// A black-text layer of `frame` under a white root of `w` × `h`.
    func text(_ w: Int, _ h: Int, frame: CGRect, _ configure: (CATextLayer) -> Void) -> CGImage {
        renderTree(w, h) { root in
            let t = CATextLayer()
            t.frame = frame
            t.foregroundColor = self.black
            t.fontSize = 16
            configure(t)
            root.addSublayer(t)
        }
    }

    /// The box of pixels that are not white: (minX, minY, maxX, maxY), nil when there are none.
    func ink(_ image: CGImage) -> (Int, Int, Int, Int)? {
        var box: (Int, Int, Int, Int)? = nil
        for y in 0..<image.height {
            for x in 0..<image.width where image.premultipliedPixel(x: x, y: y) != 0xFFFF_FFFF {
                box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        return box
    }

    @Test func defaultsAreApples() {
        let t = CATextLayer()
        #expect(t.fontSize == 36 && t.foregroundColor == CGColor.white && !t.isWrapped)
        #expect(t.truncationMode == .none && t.alignmentMode == .natural && t.string == nil)
        #expect((t.font as? NSString) == "Helvetica")
        #expect(CATextLayer.defaultValue(forKey: "fontSize") as? CGFloat == 36)
        t.setValue(true, forKey: "wrapped")
        t.setValue("center", forKey: "alignmentMode")
        #expect(t.isWrapped && t.alignmentMode == .center && kCAAlignmentJustified == "justified")
    }

    @Test func firstLineAtTheTopClippedToTheBounds() {
        let image = text(200, 60, frame: CGRect(x: 10, y: 10, width: 180, height: 40)) { $0.string = "Hello, layers" }
        let box = ink(image)!
        #expect(box.1 >= 10 && box.1 < 20)          // ascenders start just below the top of the bounds
        #expect(box.3 < 30)                          // one 16-point line
        #expect(box.0 >= 10 && box.0 < 14)           // natural alignment: left
        // Unwrapped text longer than the bounds is clipped at their right edge.
        let long = text(200, 60, frame: CGRect(x: 10, y: 10, width: 100, height: 40)) { $0.string = String(repeating: "wide ", count: 20) }
        #expect(ink(long)!.2 < 110)
    }

    @Test func wrappingAlignmentAndTruncation() {
        let words = "one two three four five six seven eight nine ten"
        let wrapped = ink(text(120, 200, frame: CGRect(x: 0, y: 0, width: 120, height: 200)) { $0.string = words; $0.isWrapped = true })!
        #expect(wrapped.3 > 40)                      // several lines
        let right = ink(text(300, 30, frame: CGRect(x: 0, y: 0, width: 300, height: 30)) { $0.string = "end"; $0.alignmentMode = .right })!
        #expect(right.2 >= 295)
        let center = ink(text(300, 30, frame: CGRect(x: 0, y: 0, width: 300, height: 30)) { $0.string = "mid"; $0.alignmentMode = .center })!
        #expect(abs((center.0 + center.2) - 300) <= 3)
        // Truncated at the end: the ellipsis ends inside the bounds, shorter than the clipped line.
        let cut = ink(text(200, 30, frame: CGRect(x: 0, y: 0, width: 100, height: 30)) { $0.string = words; $0.truncationMode = .end })!
        #expect(cut.2 < 100)
        let layout = TextContent(string: words, truncationMode: "end").layout(width: 100, height: 30)!
        #expect(layout.isTruncated)
    }

    @Test func seedChineseParagraphWrapsJustifiedInAChineseFont() {
        let image = text(240, 120, frame: CGRect(x: 0, y: 0, width: 240, height: 120)) { t in
            t.contentsScale = 1
            t.alignmentMode = .justified
            t.isWrapped = true
            t.font = CGFont("Helvetica" as CFString)
            t.fontSize = 15
            t.string = Self.seedParagraph
        }
        Golden.check("text-seed-chinese", image)
        let layout = TextContent(string: Self.seedParagraph, fontSize: 15, isWrapped: true).layout(width: 240, height: 120)!
        #expect(layout.lineCount >= 3)
        #expect(layout.firstFontFamily?.contains("WenQuanYi") == true)
        // Justified: every line but the last reaches the right edge.
        #expect(ink(image)!.2 >= 236)
    }

    @Test func attributedRunsKeepTheirColoursAndSizes() {
        let s = NSMutableAttributedString(string: "red blue")
        s.addAttribute(.foregroundColor, value: CGColor(red: 1, green: 0, blue: 0, alpha: 1), range: NSRange(location: 0, length: 3))
        s.addAttribute(.foregroundColor, value: CGColor(red: 0, green: 0, blue: 1, alpha: 1), range: NSRange(location: 4, length: 4))
        s.addAttribute(.fontSize, value: 30, range: NSRange(location: 4, length: 4))
        let image = text(200, 50, frame: CGRect(x: 0, y: 0, width: 200, height: 50)) { $0.string = s }
        func reddish(_ p: UInt32) -> Bool { p >> 16 & 255 > (p & 255) + 60 }
        func bluish(_ p: UInt32) -> Bool { p & 255 > (p >> 16 & 255) + 60 }
        #expect(countPixels(image, where: reddish) > 10 && countPixels(image, where: bluish) > 10)
        // Both runs sit on one baseline; the 30-point run rises higher.
        var blueTop = 50, redTop = 50
        for y in 0..<50 { for x in 0..<200 {
            let p = image.premultipliedPixel(x: x, y: y)
            if bluish(p) { blueTop = min(blueTop, y) }
            if reddish(p) { redTop = min(redTop, y) }
        } }
        #expect(blueTop + 5 < redTop)
    }

    @Test func contentsScaleSetsTheBackingStoreResolution() {
        func scaled(_ contentsScale: CGFloat) -> CGImage {
            renderTree(120, 60) { root in
                let t = CATextLayer()
                t.bounds = CGRect(x: 0, y: 0, width: 60, height: 30)
                t.position = CGPoint(x: 60, y: 30)
                t.transform = CATransform3DMakeScale(2, 2, 1)
                t.foregroundColor = self.black
                t.fontSize = 12
                t.contentsScale = contentsScale
                t.string = "Sharp"
                root.addSublayer(t)
            }
        }
        // Drawn at 1 pixel per point and magnified, edges smear over more grey pixels than when
        // drawn at 2 pixels per point.
        func grey(_ i: CGImage) -> Int { countPixels(i) { $0 != 0xFFFF_FFFF && $0 != 0xFF00_0000 } }
        #expect(grey(scaled(2)) < grey(scaled(1)))
    }

    @Test func fontSizeAndColourAnimate() {
        let d = FrameDriver(300, 80)
        let t = CATextLayer()
        t.frame = CGRect(x: 0, y: 0, width: 300, height: 80)
        t.foregroundColor = black
        t.fontSize = 10
        t.string = "Grow"
        d.change(at: 0) { d.root.addSublayer(t) }
        let small = ink(d.frame(at: 0))!
        let a = CABasicAnimation(keyPath: "fontSize")
        a.fromValue = 10; a.toValue = 50; a.duration = 1
        t.add(a, forKey: nil)
        d.frame(at: 0)
        let mid = ink(d.frame(at: 0.5))!
        let big = ink(d.frame(at: 0.999))!
        #expect(small.3 < mid.3 && mid.3 < big.3)
        d.change(at: 2) { t.foregroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1) }
        #expect(t.animation(forKey: "foregroundColor") is CABasicAnimation)
    }

    @Test func badInputIsBounded() {
        #expect(ink(text(50, 20, frame: CGRect(x: 0, y: 0, width: 50, height: 20)) { $0.string = "" }) == nil)
        #expect(ink(text(50, 20, frame: CGRect(x: 0, y: 0, width: 50, height: 20)) { $0.string = 42 }) == nil)
        let before = CGDiagnostics.count(.nonFiniteGeometry)
        let t = CATextLayer()
        t.fontSize = .nan
        #expect(t.fontSize == 36 && CGDiagnostics.count(.nonFiniteGeometry) > before)
        // A font nobody has falls back to an installed one; a 1 MB string is cut (laid out bounded).
        #expect(ink(text(100, 30, frame: CGRect(x: 0, y: 0, width: 100, height: 30)) { $0.font = "NoSuchFont" as NSString; $0.string = "ok" }) != nil)
        let huge = String(repeating: "abcdefghij ", count: 100_000)
        #expect(ink(text(100, 30, frame: CGRect(x: 0, y: 0, width: 100, height: 30)) { $0.isWrapped = true; $0.string = huge }) != nil)
        // Enormous sizes are laid out at the 2,048-point cap.
        let capped = TextContent(string: "x", fontSize: 1e9).layout(width: 100, height: 30)!
        #expect(capped.size.height > 1_000 && capped.size.height < 4_000)
    }
}

extension TextContent {
    init(string: String, fontSize: CGFloat = 16, isWrapped: Bool = false, truncationMode: String = "none") {
        self.init()
        self.string = string; self.fontSize = fontSize; self.isWrapped = isWrapped; self.truncationMode = truncationMode
    }
}
