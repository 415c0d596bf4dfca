import Foundation
import LayerRender
import QuartzCore
import X11Host

// Benchmarks of the engine, run by `make bench` in a release build: the peer scenes
// (PeerScenes.swift) and the engine's own lines (EngineBenchmarks.swift), measured as
// Timing.swift says.

print("Benchmarks (release build, \(ProcessInfo.processInfo.activeProcessorCount) cores)")
if !Peers.fastest.isEmpty { print("peers measured in this run: \(ProcessInfo.processInfo.environment["PEERS_RESULTS"]!)") }
if CommandLine.arguments.count == 1 || CommandLine.arguments.contains("presentation") { presentationBenchmark() }
// Peer medians are the recorded baseline of ../shared/bench/peers (RESULTS.md), not this run.
// The canonical scenes draw every shadow again each frame, as their rules ask; S3 runs again
// below as the compositor runs it, keeping the blurred planes of shadows that did not change.
Compositor.reusesShadows = false
PeerScenes.run("S1 rects, 1,000 bordered layers", PeerScenes.s1(), baseline: "peers: Blend2D 0.96, cairo 3.24 (baseline)")
PeerScenes.run("S2 alpha-rounded, 500 rotated layers", PeerScenes.s2(), baseline: "peers: Blend2D 5.58, cairo 40.0 (baseline)")
PeerScenes.run("S3 shadows, 100 layers", PeerScenes.s3(), baseline: "peers: Blend2D+blur 9.11, cairo+blur 10.9 (baseline)")
PeerScenes.run("S4 image-scale, 51 contents layers", PeerScenes.s4(), baseline: "peers: cairo 3.69, pixman 4.07 (baseline)")
// S5 twice: as the compositor runs it (pictures reused while unchanged for the shapes that
// cache one: none of S5's, whose outlines are cheap to redraw), and with every shape
// re-rasterised each frame, as the scene's rules ask.
PeerScenes.run("S5 stars, 200 gradient+shape layers, as the compositor runs", PeerScenes.s5(), baseline: "")
Compositor.reusesContent = false
PeerScenes.run("S5 stars, re-rasterised every frame", PeerScenes.s5(), baseline: "peers: Blend2D 5.65, cairo 43.3 (baseline)")
Compositor.reusesContent = true
PeerScenes.run("S6 perspective, 50 layers", PeerScenes.s6(), baseline: "peers: pixman 77.1, Skia 95.8 (baseline)")
Compositor.reusesShadows = true
PeerScenes.run("S3 as the compositor runs (unchanged shadows kept)", PeerScenes.s3(),
               baseline: "not canonical: each blurred plane reused from the last frame", canonical: false)
damageBenchmark()
structuralBenchmark()
spinnerBenchmark()
renderInContextBenchmark()
windowBenchmark()
