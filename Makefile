# One-command setup: `make run` opens the gallery, `make test` runs every test.
# Both first run `make deps`, which installs missing Debian packages (as root) or
# prints the one apt-get line to run.

SWIFT ?= swift
DEBIAN_PACKAGES := libx11-dev libxext-dev libxpresent-dev libxfixes-dev libcairo2-dev libpango1.0-dev libjpeg-dev pkg-config \
                   xvfb xdotool x11-utils fonts-wqy-microhei fonts-dejavu-core fonts-noto-color-emoji fontconfig
JOBS ?= 2

.PHONY: deps build run test bench clean screenshots

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

bench: deps
	$(SWIFT) build -c release -j $(JOBS) --product bench
	scripts/bench.sh "$$($(SWIFT) build -c release --show-bin-path)/bench"

screenshots: deps
	$(SWIFT) build -c release -j $(JOBS) --product samples
	"$$($(SWIFT) build -c release --show-bin-path)/samples" --headless docs/images

clean:
	rm -rf .build out failures
