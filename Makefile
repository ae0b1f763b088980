# rapt — one build for every program.
#
#   make                 build every program into $(BUILD)/bin (CUDA parts when nvcc is found)
#   make test            unit, known-answer, GPU (skipped without a device) and end-to-end tests
#   make demo            simulate an observation and run the pipeline on it
#   make bench           fixed benchmark workloads, one table
#   make deps            install the Debian packages rapt needs (apt-get as root)
#   make offline-deps    download those packages as .deb files into deps-offline/
#   make install PREFIX=/usr/local [PROGRAM_PREFIX=rapt-]
#   make clean
#
# Variables: CUDA=0 forces a CPU-only build; CUDA_ARCH lists GPU targets; DEPS_ROOT=<dir> builds
# against Debian packages unpacked there with `dpkg -x`; BUILD=<dir> picks the build folder;
# PLPLOT=0 builds without PLplot (snr --plot then says so); CASACORE=0 builds without casacore
# (Measurement Set input and output then say so).

BUILD          ?= build
PREFIX         ?= /usr/local
PROGRAM_PREFIX ?=
DEPS_ROOT      ?=
NVCC           ?= $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
CUDA           ?= $(if $(NVCC),1,0)
CUDA_ARCH      ?= -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
                  -gencode arch=compute_90a,code=sm_90a \
                  -gencode arch=compute_90,code=compute_90

PROGRAMS := $(basename $(notdir $(wildcard tools/*.cpp)))
VERSION  := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

CXX      ?= g++
CXXFLAGS ?= -O2 -g
override CXXFLAGS += -std=c++17 -Wall -Wextra -pthread -MMD -MP -Icommon -DRAPT_VERSION='"$(VERSION)"'
LDLIBS   := -lcfitsio -lerfa -lfftw3f -lfftw3f_threads -lfftw3 -lpthread

# PLplot (with its cairo driver) draws snr's PNG plots; without it, snr --plot says so.
PLPLOT ?= $(shell pkg-config --exists plplot 2>/dev/null && echo 1 || echo 0)
ifeq ($(PLPLOT),1)
  override CXXFLAGS += -DRAPT_WITH_PLPLOT=1 $(shell pkg-config --cflags plplot)
  LDLIBS += $(shell pkg-config --libs plplot)
endif

# casacore reads and writes Measurement Sets; without it, MS options say so.
CASACORE ?= $(shell pkg-config --exists casacore 2>/dev/null && echo 1 || echo 0)
ifeq ($(CASACORE),1)
  override CXXFLAGS += -DRAPT_WITH_CASACORE=1 -isystem /usr/include/casacore
  LDLIBS += -lcasa_ms -lcasa_measures -lcasa_tables -lcasa_casa
endif

ifneq ($(DEPS_ROOT),)
  DEPS_LIBDIR := $(DEPS_ROOT)/usr/lib/x86_64-linux-gnu
  override CXXFLAGS += -isystem $(DEPS_ROOT)/usr/include
  LDFLAGS     += -L$(DEPS_LIBDIR) -Wl,-rpath,$(abspath $(DEPS_LIBDIR))
endif

ifeq ($(CUDA),1)
  CUDA_HOME   ?= $(patsubst %/bin/nvcc,%,$(NVCC))
  override CXXFLAGS += -DRAPT_WITH_CUDA=1
  NVCCFLAGS   ?= -O3 -lineinfo
  NVCCFLAGS   += -std=c++17 $(CUDA_ARCH) -Icommon -Igpu -MMD -MP -Xcompiler -Wall,-pthread
  ifneq ($(DEPS_ROOT),)
    NVCCFLAGS += -isystem $(DEPS_ROOT)/usr/include
  endif
  GPU_LDLIBS  := -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcublas -lcufft -lcudart
  # Tests of the CUDA helpers themselves (pinned buffers) include the runtime's header.
  TEST_CUDA_FLAGS := -isystem $(CUDA_HOME)/include
else
  GPU_LDLIBS  :=
  TEST_CUDA_FLAGS :=
endif

COMMON_SRC := $(shell find common -name '*.cpp' | sort)
GPU_CU_SRC := $(if $(filter 1,$(CUDA)),$(shell find gpu -name '*.cu' | sort))
GPU_CPP_SRC:= $(if $(filter 1,$(CUDA)),$(shell find gpu -name '*.cpp' | sort))
COMMON_OBJ := $(COMMON_SRC:%.cpp=$(BUILD)/obj/%.o)
GPU_OBJ    := $(GPU_CU_SRC:%.cu=$(BUILD)/obj/%.cu.o) $(GPU_CPP_SRC:%.cpp=$(BUILD)/obj/%.o)
LIB        := $(BUILD)/lib/librapt.a
BINS       := $(PROGRAMS:%=$(BUILD)/bin/%)
TEST_SRC   ?= $(shell find tests -name '*_test.cpp' -not -path 'tests/fuzz/*' | sort) tests/test_data.cpp
TEST_OBJ   := $(TEST_SRC:%.cpp=$(BUILD)/obj/%.o)
TEST_BIN   := $(BUILD)/tests/rapt_tests
BENCH_SRC  := $(wildcard tests/bench/*.cpp)
BENCH_BIN  := $(BUILD)/tests/rapt_bench

.PHONY: all test demo bench deps offline-deps install clean check-deps test-sanitize fuzz
all: $(BINS)

$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@

$(BUILD)/obj/tests/%.o: tests/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -Itests $(TEST_CUDA_FLAGS) -c $< -o $@

$(BUILD)/obj/gpu/%.o: gpu/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -Igpu -isystem $(CUDA_HOME)/include -c $< -o $@

$(BUILD)/obj/%.cu.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@

$(LIB): $(COMMON_OBJ) $(GPU_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/bin/%: $(BUILD)/obj/tools/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) $< $(LIB) $(LDLIBS) $(GPU_LDLIBS) -o $@

$(TEST_BIN): $(TEST_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) $(TEST_OBJ) $(LIB) -lgtest_main -lgtest $(LDLIBS) $(GPU_LDLIBS) -o $@

$(BENCH_BIN): $(BENCH_SRC:%.cpp=$(BUILD)/obj/%.o) $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) $(filter %.o,$^) $(LIB) $(LDLIBS) $(GPU_LDLIBS) -o $@

# Build prerequisites are checked first: `make test` and `make demo` on a fresh Debian machine
# install what is missing (as root) or print the exact command to run.
DEBIAN_PACKAGES := libfftw3-dev libcfitsio-dev libcxxopts-dev libgtest-dev groff-base python3-numpy \
                   libplplot-dev plplot-driver-cairo liberfa-dev casacore-dev \
                   python3-astropy python3-casacore
# What the offline bundle needs beyond the -dev packages (runtime libraries they point at).
# (casacore and the Python checkers stay out: an offline GPU node builds with CASACORE=0.)
OFFLINE_PACKAGES := $(filter-out casacore-dev python3-astropy python3-casacore,$(DEBIAN_PACKAGES)) \
                    libfftw3-single3 libfftw3-double3 libcfitsio10 libfftw3-bin googletest liberfa1

check-deps:
ifeq ($(DEPS_ROOT),)
	@missing=$$(for p in $(DEBIAN_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null \
	    | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "rapt: installing $$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else echo "rapt: missing Debian packages; run: sudo apt-get install $$missing" >&2; exit 1; fi; \
	fi
endif

deps:
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y $(DEBIAN_PACKAGES)

offline-deps:
	mkdir -p deps-offline && cd deps-offline && apt-get download $(OFFLINE_PACKAGES)
	@echo "Carry deps-offline/, then: for f in deps-offline/*.deb; do dpkg -x \$$f deps-root; done; make DEPS_ROOT=deps-root"

test: check-deps
	@$(MAKE) --no-print-directory all $(TEST_BIN)
	@BUILD=$(BUILD) sh tests/run_tests.sh

demo: check-deps
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) sh examples/demo.sh

bench: check-deps
	@$(MAKE) --no-print-directory all $(BENCH_BIN)
	@BUILD=$(BUILD) $(BENCH_BIN)

# The test suite under AddressSanitizer and UndefinedBehaviorSanitizer (CPU build).
test-sanitize:
	@LSAN_OPTIONS=suppressions=$(abspath tests/lsan_suppressions.txt) ASAN_OPTIONS=allocator_may_return_null=1 \
	$(MAKE) --no-print-directory test CUDA=0 BUILD=$(BUILD)-sanitize \
	    CXXFLAGS='-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined'

# libFuzzer targets for the header parsers (needs clang++): $(BUILD)/fuzz/<name>. The library is
# compiled once with the fuzzer's instrumentation, in parallel, and each target links what it
# needs from it. Two files no parser needs stay out: accel/plane_builder.cpp and sim/noise.cpp use
# _Float16 and __builtin_shuffle, which clang 14 (Debian 12) lacks on x86-64.
FUZZ_SRC := $(wildcard tests/fuzz/*_fuzzer.cpp)
FUZZ_CASACORE := $(if $(filter 1,$(CASACORE)),-DRAPT_WITH_CASACORE=1 -isystem /usr/include/casacore)
FUZZ_FLAGS := -std=c++17 -g -O1 -fno-sanitize-recover=undefined -Icommon $(FUZZ_CASACORE)
FUZZ_LIB_SRC := $(filter-out common/accel/plane_builder.cpp common/sim/noise.cpp,$(COMMON_SRC))
fuzz:
	@command -v clang++ >/dev/null || { echo "make fuzz needs clang++ (apt-get install clang)"; exit 1; }
	@rm -rf $(BUILD)/fuzz/obj && mkdir -p $(BUILD)/fuzz/obj
	@echo "  library ($(words $(FUZZ_LIB_SRC)) files)"
	@printf '%s\n' $(FUZZ_LIB_SRC) | xargs -P "$$(nproc)" -I{} sh -c \
	  'clang++ $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,address,undefined -c {} \
	     -o $(BUILD)/fuzz/obj/$$(echo {} | tr / _).o || exit 255'
	@rm -f $(BUILD)/fuzz/librapt_fuzz.a && ar rcs $(BUILD)/fuzz/librapt_fuzz.a $(BUILD)/fuzz/obj/*.o
	@for f in $(FUZZ_SRC); do n=$$(basename $$f .cpp); echo "  $$n"; \
	  clang++ $(FUZZ_FLAGS) -fsanitize=fuzzer,address,undefined $$f $(BUILD)/fuzz/librapt_fuzz.a \
	    -o $(BUILD)/fuzz/$$n $(LDLIBS) || exit 1; done

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man7
	for p in $(PROGRAMS); do install -m 755 $(BUILD)/bin/$$p $(DESTDIR)$(PREFIX)/bin/$(PROGRAM_PREFIX)$$p; done
	for m in man/*.1; do install -m 644 $$m $(DESTDIR)$(PREFIX)/share/man/man1/$(PROGRAM_PREFIX)$$(basename $$m); done
	install -m 644 man/rapt.7 $(DESTDIR)$(PREFIX)/share/man/man7/rapt.7

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
