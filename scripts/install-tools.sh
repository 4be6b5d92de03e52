#!/usr/bin/env bash
# Make sure Icarus Verilog (iverilog, vvp), Yosys, bubblewrap (bwrap, the sandbox the scorer runs
# them in) and Verilator (the lint stage) are on PATH, installing Debian's packages if not.
# Installs only as root or with passwordless sudo; otherwise prints the command to run and exits 1.
set -euo pipefail

declare -A package=([iverilog]=iverilog [vvp]=iverilog [yosys]=yosys [bwrap]=bubblewrap [verilator]=verilator)
missing=()
packages=()
for t in iverilog vvp yosys bwrap verilator; do
  if ! command -v "$t" >/dev/null 2>&1; then
    missing+=("$t")
    [[ " ${packages[*]} " == *" ${package[$t]} "* ]] || packages+=("${package[$t]}")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo -n)
else
  echo "install-tools: missing ${missing[*]}; cannot install them (not root, no passwordless sudo). Run:" >&2
  echo "  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages[*]}" >&2
  exit 1
fi

echo "install-tools: missing ${missing[*]}; installing ${packages[*]} with apt-get" >&2
# Wait up to 10 minutes for another apt/dpkg run to release its locks instead of failing at once.
lock=(-o DPkg::Lock::Timeout=600)
"${sudo[@]}" apt-get "${lock[@]}" update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" install -y -qq "${packages[@]}" >/dev/null

still=()
for t in iverilog vvp yosys bwrap verilator; do
  command -v "$t" >/dev/null 2>&1 || still+=("$t")
done
if [ ${#still[@]} -ne 0 ]; then
  echo "install-tools: after apt-get install, still not on PATH: ${still[*]}" >&2
  exit 1
fi
