# Builds Lull with cargo, the way OpenBench builds engines: `make EXE=<path>` in the
# repository root. Without EXE the binary stays in target/release/lull.
#
#   make                      build target/release/lull
#   make EXE=../lull-dev      build, then copy the binary to ../lull-dev
#
#   make EVALFILE=<path>      embed that network instead of nets/lull-6.nnue (OpenBench
#                             passes it; build.rs checks the file, a relative path is from
#                             this directory)
#   make FEATURES=tune        the tuning build (every tunable search number a UCI option,
#                             for OpenBench's SPSA; a tuning branch sets FEATURES ?= tune)

CARGO ?= cargo
EXE ?=
EVALFILE ?=
FEATURES ?=

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
	EVALFILE="$(EVALFILE)" $(CARGO) build --release $(if $(strip $(FEATURES)),--features $(FEATURES))

clean:
	$(CARGO) clean
