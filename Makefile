# qshape: top-level entry points. `make demo` and `make check` work on a fresh
# Debian 12 machine: they install what is missing, configure, build and run.

BUILD      ?= build
BUILD_TYPE ?= Release
LLVM_DIR_  ?= /usr/lib/llvm-22
PYTHON     ?= /usr/bin/python3
JOBS       ?= $(shell nproc)

# Debian packages qshape needs (only the missing ones are installed).
# python3-venv/-setuptools/-wheel: `pip install ./python` in a venv without
# the network (setuptools 66 builds wheels with the separate wheel package).
DEB_PACKAGES = llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools \
               clang-22 cmake ninja-build libgtest-dev libgmock-dev libmimalloc-dev \
               python3 python3-pytest lld-22 \
               python3-venv python3-setuptools python3-wheel \
               libhiredis-dev redis-server \
               libclang-rt-22-dev ccache python3-matplotlib liblld-22-dev \
               clang-format-22 clang-tidy-22

.PHONY: all deps configure build check demo bench docs clean format format-check tidy \
        build-sanitize check-sanitize fuzz fuzz-differential

all: build

deps:
	@./utils/install-deps.sh $(DEB_PACKAGES)

$(BUILD)/build.ninja:
	@$(MAKE) --no-print-directory deps
	cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DMLIR_DIR=$(LLVM_DIR_)/lib/cmake/mlir -DPython3_EXECUTABLE=$(PYTHON) \
	  -DCMAKE_C_COMPILER=$(LLVM_DIR_)/bin/clang -DCMAKE_CXX_COMPILER=$(LLVM_DIR_)/bin/clang++

configure: $(BUILD)/build.ninja

build: deps configure
	ninja -C $(BUILD) -j $(JOBS)

check: build
	@$(PYTHON) utils/run-tests.py --build $(BUILD) --python $(PYTHON)

# One C++ style (.clang-format): `make format` rewrites the tree, `make
# format-check` (in .ci/run) lists what is not formatted. `make tidy` runs
# .clang-tidy's checks on lib/ with the build's compile commands (about 10-20
# minutes on 2 cores), lists each warning once, and fails if there is one.
format: deps
	@git ls-files '*.cpp' '*.h' ':!:test/**/Inputs/**' | xargs clang-format-22 -i

format-check: deps
	@./utils/format-check.sh

tidy: deps configure
	@run-clang-tidy-22 -quiet -p $(BUILD) -j $(JOBS) '$(CURDIR)/lib/.*\.cpp$$' > $(BUILD)/tidy.log 2>&1; \
	  grep -E '^/.*: (warning|error): ' $(BUILD)/tidy.log | sort -u > $(BUILD)/tidy-warnings.txt; \
	  cat $(BUILD)/tidy-warnings.txt; n=$$(wc -l < $(BUILD)/tidy-warnings.txt); \
	  echo "tidy: $$n warnings and errors (the whole output: $(BUILD)/tidy.log)"; [ "$$n" -eq 0 ]

demo: build
	@./utils/demo.sh $(BUILD)

# Every section into $(BUILD)/bench/*.json, then the plots and docs/benchmarks.md
# from them (also after a failed section, which the page lists as failed).
bench: build
	@$(PYTHON) bench/run.py --build $(BUILD) --sections all; status=$$?; \
	  $(MAKE) --no-print-directory bench-report && exit $$status

bench-report:
	@$(PYTHON) bench/plots.py --build $(BUILD)
	@$(PYTHON) bench/report.py --build $(BUILD)

docs: build
	ninja -C $(BUILD) qshape-docs
	mkdir -p docs/generated
	cp $(BUILD)/docs/Dialects/QuantumDialect.md $(BUILD)/docs/Dialects/QRefDialect.md \
	   $(BUILD)/docs/QShapePasses.md $(BUILD)/docs/QShapeModuleCachePasses.md \
	   $(BUILD)/docs/QShapeConversionPasses.md docs/generated/

clean:
	rm -rf $(BUILD)

# Robustness (docs/robustness.md): one ASan+UBSan build, compiled with
# libFuzzer's coverage instrumentation, serves `make check-sanitize` (the lit
# and unit suites) and `make fuzz` (the libFuzzer targets in fuzz/ and the
# differential harness). It builds at low priority: the machine is shared.
SAN_BUILD     ?= build-sanitize
FUZZ_SECONDS  ?= 20
DIFF_SECONDS  ?= $(FUZZ_SECONDS)
NICE          ?= nice -n 10

$(SAN_BUILD)/build.ninja:
	@$(MAKE) --no-print-directory deps
	cmake -G Ninja -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
	  -DLLVM_USE_SANITIZER="Address;Undefined" -DQSHAPE_ENABLE_FUZZERS=ON \
	  -DMLIR_DIR=$(LLVM_DIR_)/lib/cmake/mlir -DPython3_EXECUTABLE=$(PYTHON) \
	  -DCMAKE_C_COMPILER=$(LLVM_DIR_)/bin/clang -DCMAKE_CXX_COMPILER=$(LLVM_DIR_)/bin/clang++

build-sanitize: deps $(SAN_BUILD)/build.ninja
	$(NICE) ninja -C $(SAN_BUILD) -j $(JOBS)

check-sanitize: build-sanitize
	@$(PYTHON) utils/run-tests.py --build $(SAN_BUILD) --python $(PYTHON) --suites lit --label sanitize

fuzz: build-sanitize
	@$(PYTHON) fuzz/run-fuzzers.py --build $(SAN_BUILD) --seconds $(FUZZ_SECONDS) \
	  --differential-seconds $(DIFF_SECONDS)

fuzz-differential: build-sanitize
	@$(PYTHON) fuzz/differential.py --build $(SAN_BUILD) --seconds $(DIFF_SECONDS)
