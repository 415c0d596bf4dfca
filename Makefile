# One-command setup: `make run` opens the gallery, `make test` runs every test.
# Both first run `make deps`, which installs missing Debian packages (as root) or
# prints the one apt-get line to run.

SWIFT ?= swift
DEBIAN_PACKAGES := libx11-dev libxext-dev libxpresent-dev libxfixes-dev libcairo2-dev libpango1.0-dev libjpeg-dev pkg-config \
                   xvfb xdotool x11-utils fonts-wqy-microhei fonts-dejavu-core fonts-noto-color-emoji fontconfig
JOBS ?= 2

.PHONY: deps build run test bench clean screenshots fuzz asan tsan

deps:
	@./scripts/deps.sh $(DEBIAN_PACKAGES)

build: deps
	$(SWIFT) build -j $(JOBS)

run: deps
	$(SWIFT) build -c release -j $(JOBS) --product samples
	./scripts/run-samples.sh

# Tests see exactly the fonts `make deps` installs (Tests/Fonts/fonts.conf), whatever else the
# machine has: text goldens are the same everywhere.
TEST_FONTS := FONTCONFIG_FILE=$(CURDIR)/Tests/Fonts/fonts.conf

test: deps
	$(SWIFT) build --build-tests -j $(JOBS)
	$(TEST_FONTS) $(SWIFT) test --skip-build --parallel --num-workers $(JOBS)

# libFuzzer with AddressSanitizer over every fuzz target (Sources/FuzzTargets), FUZZ_SECONDS each
# (FUZZ_RUNS=N stops after N inputs; FUZZ_LEAKS=0 for long runs: see scripts/fuzz.sh).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := image path layers text
# Built from scratch each time. The sanitizers reach the compiler as one flag: given as two
# `--sanitize` options, SwiftPM was seen to hand the frontend a combination that instruments
# nothing (libFuzzer then reports 16 counters, not ~80,000); `--sanitize fuzzer` stays for the
# link (it makes libFuzzer's main the program's).
fuzz: deps
	rm -rf .build-fuzz
	$(SWIFT) build -c release --product fuzz --sanitize fuzzer --scratch-path .build-fuzz -j $(JOBS) -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
	$(TEST_FONTS) scripts/fuzz.sh .build-fuzz/release/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The test suite under AddressSanitizer / ThreadSanitizer (separate build folders); tests that
# measure frame timing are off there (CA_SANITIZER).
asan: deps
	$(SWIFT) build --build-tests --sanitize address --scratch-path .build-asan -j $(JOBS)
	CA_SANITIZER=address LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan.supp:print_suppressions=0 $(TEST_FONTS) $(SWIFT) test --skip-build --sanitize address --scratch-path .build-asan --parallel --num-workers $(JOBS)

tsan: deps
	$(SWIFT) build --build-tests --sanitize thread --scratch-path .build-tsan -j $(JOBS)
	CA_SANITIZER=thread $(TEST_FONTS) $(SWIFT) test --skip-build --sanitize thread --scratch-path .build-tsan --parallel --num-workers $(JOBS)

bench: deps
	$(SWIFT) build -c release -j $(JOBS) --product bench
	scripts/bench.sh "$$($(SWIFT) build -c release --show-bin-path)/bench"

screenshots: deps
	$(SWIFT) build -c release -j $(JOBS) --product samples
	"$$($(SWIFT) build -c release --show-bin-path)/samples" --headless docs/images

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan .fuzz out failures
