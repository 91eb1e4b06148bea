# Builds Lull with cargo, the way OpenBench builds engines: `make EXE=<path>` in the
# repository root. Without EXE the binary stays in target/release/lull.
#
#   make                      build target/release/lull
#   make EXE=../lull-dev      build, then copy the binary to ../lull-dev
#
# EVALFILE=<path> (OpenBench passes it for engines with a network) is accepted and ignored:
# no network is embedded in the build yet (nnue::DEFAULT_NET); a network file is loaded at run
# time with the UCI options EvalFile and Use NNUE (docs/nnue.md).

CARGO ?= cargo
EXE ?=
EVALFILE ?=

# Windows binaries end in .exe: the built one, and the copy (unless EXE already says so).
ifeq ($(OS),Windows_NT)
    SUFFIX := .exe
else
    SUFFIX :=
endif
BIN := target/release/lull$(SUFFIX)
OUT := $(patsubst %$(SUFFIX),%,$(EXE))$(SUFFIX)

.PHONY: all build clean

all: build
ifneq ($(strip $(EXE)),)
	cp $(BIN) $(OUT)
endif

build:
	$(CARGO) build --release

clean:
	$(CARGO) clean
