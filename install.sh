#!/bin/sh
# install.sh: from a clone to a working `scout`, safely re-runnable.
#
# Checks for cargo, installs ripgrep when it is missing, builds scout in
# release mode (--locked), installs the binary and its man pages, verifies
# it runs and runs `scout doctor`. Every failure stops with a message that
# names the fix; man pages that cannot be written are only a note.
set -eu

usage() {
    cat <<'USAGE'
Usage: ./install.sh [--man-dir DIR] [--upgrade-rg] [--help]

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
     (CARGO_TARGET_DIR is honoured);
  4. copies the binary to $SCOUT_INSTALL_DIR (default: ~/.local/bin),
     unless an identical one is already there;
  5. runs `scout --version`, writes the man pages (scout.1, scout-search.1,
     ...) with `scout man --dir` where the man directory is writable, and
     runs `scout doctor`.

Options:
  --man-dir DIR       where to put the man pages (default: $SCOUT_MAN_DIR,
                      else ${XDG_DATA_HOME:-~/.local/share}/man/man1)
  --upgrade-rg        when the rg found is older than 14, also install a
                      current one with `cargo install --locked ripgrep`
                      (into ~/.cargo/bin; the old one is not removed)

Environment:
  SCOUT_INSTALL_DIR   where to put the scout binary (default ~/.local/bin)
  SCOUT_MAN_DIR       where to put the man pages (as --man-dir)
  SCOUT_RG            an rg binary to use instead of the one on PATH
  SCOUT_STATIC        auto (default) or no: whether to try the static build
USAGE
}

MAN_DIR=${SCOUT_MAN_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/man/man1}
UPGRADE_RG=no
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --upgrade-rg) UPGRADE_RG=yes; shift ;;
        --man-dir)
            [ $# -ge 2 ] && [ -n "$2" ] || { echo "install.sh: --man-dir needs a directory (try --help)" >&2; exit 2; }
            MAN_DIR=$2; shift 2 ;;
        --man-dir=*) MAN_DIR=${1#--man-dir=}; shift ;;
        *) echo "install.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
done

say() { printf 'install.sh: %s\n' "$*"; }
die() { printf 'install.sh: error: %s\n' "$*" >&2; exit 1; }

cd "$(dirname "$0")"
[ -f Cargo.toml ] || die "run me from the scout checkout (no Cargo.toml next to install.sh)"

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
# BENCHMARKS.md, "Start-up"); scout runs once per search, so that is worth
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
case "${SCOUT_STATIC:-auto}:$HOST" in
    auto:*-linux-gnu)
        say "building scout, static (cargo build --release --locked --target $HOST)"
        if ! RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+crt-static -C relocation-model=static" \
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
else
    say "note: cannot write man pages to $MAN_DIR; pick a writable one with --man-dir DIR (or read them with: scout man | man -l -)"
fi
say "scout doctor:"
if "$DEST/scout" doctor; then
    say "done. Try: scout search <identifier> ."
else
    die "scout doctor found a problem; apply the fix it names and re-run ./install.sh"
fi
