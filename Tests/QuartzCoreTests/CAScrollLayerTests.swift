// CAScrollLayer: scrolling moves bounds.origin along the directions scrollMode allows, shows a
// rect with the least movement, clips its sublayers, and sublayers find it through scroll(_:),
// scrollRectToVisible(_:) and visibleRect.
@testable import QuartzCore
import TestSupport
import Testing

@Suite(.serialized) struct CAScrollLayerTests {
    func list() -> (CAScrollLayer, [CALayer]) {
        let s = CAScrollLayer()
        s.frame = CGRect(x: 0, y: 0, width: 50, height: 40)
        var rows: [CALayer] = []
        for i in 0..<10 {
            let row = CALayer()
            row.frame = CGRect(x: 0, y: CGFloat(i) * 20, width: 50, height: 20)
            row.backgroundColor = CGColor(red: CGFloat(i) / 10, green: 0.5, blue: 1 - CGFloat(i) / 10, alpha: 1)
            s.addSublayer(row)
            rows.append(row)
        }
        return (s, rows)
    }

    @Test func scrollModesAndDefaults() {
        let (s, _) = list()
        #expect(s.scrollMode == .both && s.masksToBounds && kCAScrollVertically == "vertically")
        s.scroll(to: CGPoint(x: 5, y: 60))
        #expect(s.bounds.origin == CGPoint(x: 5, y: 60))
        s.scrollMode = .vertically
        s.scroll(to: CGPoint(x: 30, y: 80))
        #expect(s.bounds.origin == CGPoint(x: 5, y: 80))
        s.scrollMode = .none
        s.scroll(to: CGPoint.zero)
        #expect(s.bounds.origin == CGPoint(x: 5, y: 80))
        s.scrollMode = .both
        s.scroll(to: CGPoint(x: CGFloat.nan, y: 0))
        #expect(s.bounds.origin == CGPoint(x: 5, y: 80))
    }

    @Test func showingRectsScrollsTheLeast() {
        let (s, rows) = list()
        s.scroll(to: CGRect(x: 0, y: 100, width: 50, height: 20))   // below: its bottom meets the bottom edge
        #expect(s.bounds.origin.y == 80)
        s.scroll(to: CGRect(x: 0, y: 90, width: 10, height: 10))    // already visible: no movement
        #expect(s.bounds.origin.y == 80)
        s.scroll(to: CGRect(x: 0, y: 20, width: 10, height: 10))    // above: its top meets the top edge
        #expect(s.bounds.origin.y == 20)
        rows[7].scrollRectToVisible(rows[7].bounds)                 // from a sublayer, in its own coordinates
        #expect(s.bounds.origin.y == 120)
        rows[2].scroll(CGPoint(x: 0, y: 10))
        #expect(s.bounds.origin == CGPoint(x: 0, y: 50))
        #expect(rows[2].visibleRect == CGRect(x: 0, y: 10, width: 50, height: 10))
        #expect(rows[3].visibleRect == rows[3].bounds && rows[4].visibleRect == CGRect(x: 0, y: 0, width: 50, height: 10))
        #expect(rows[9].visibleRect.isNull)
        #expect(CALayer().visibleRect == .zero)
    }

    @Test func scrolledContentIsShiftedAndClipped() {
        let (s, _) = list()
        s.scroll(to: CGPoint(x: 0, y: 30))
        let image = renderTree(50, 60) { root in
            s.frame.origin = CGPoint(x: 0, y: 10)
            root.addSublayer(s)
        }
        // Row 1 (y 20…40) now starts 10 points into the scroll layer; nothing shows outside it.
        let row1 = CGColor(red: 0.1, green: 0.5, blue: 0.9, alpha: 1)
        #expect(image.premultipliedPixel(x: 25, y: 10) == PremultipliedWord(row1))
        #expect(image.premultipliedPixel(x: 25, y: 55) == 0xFFFF_FFFF && image.premultipliedPixel(x: 25, y: 5) == 0xFFFF_FFFF)
    }

    func PremultipliedWord(_ c: CGColor) -> UInt32 {
        let v = c.rgba
        func ch(_ x: CGFloat) -> UInt32 { UInt32((x * 255).rounded()) }
        return 0xFF00_0000 | ch(v.r) << 16 | ch(v.g) << 8 | ch(v.b)
    }
}
