# Orrery — the README's two commands:
#   make demo   install missing Debian packages, build, render the showcase to a PNG
#   make test   install missing Debian packages, build, run every test through ctest
# More: make test-asan (ASan + UBSan build of the tests), make format-check, make bench,
#   make handedness-snapshot (accept an intended right-handed change: docs/handedness.md),
#   make soak (the 10 000-frame churn soak: docs/reliability.md).
# Both suites run: left-handed tests and, suffixed _rh, the same tests against orrery-rh.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: deps build demo test test-asan format format-check clean handedness-snapshot soak

deps:
	@sh scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	./$(BUILD)/demo/orrery-demo --out out/showcase.png

test: build
	cd $(BUILD) && ctest --output-on-failure -j 2

test-asan: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DORR_SANITIZE=ON
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j 2

# The churn soak at full length (ctest runs it at CI size); prints RSS and
# device memory every 1 000 frames and fails on growth or any validation message.
soak: build
	ORR_SOAK_FRAMES=$${ORR_SOAK_FRAMES:-10000} ./$(BUILD)/tests/test_churn churn_soak_renders_without_waits

handedness-snapshot:
	python3 tests/handedness/guard.py snapshot
	git diff --stat -- tests/handedness/drift.snapshot

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

format-check:
	clang-format --dry-run --Werror $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) build-asan out
