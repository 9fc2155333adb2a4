#!/usr/bin/env bash
# Builds hardware/firmware/build/table.hex with Debian's gcc-avr + avr-libc.
# Reproducible: fixed flags, no timestamps, relative source paths; the output HEX is
# committed and tests/hardware checks it is not stale.
#   usage: hardware/firmware/build.sh [output-dir]   (default: hardware/firmware/build)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/build}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$here"
CFLAGS=(-mmcu=atmega328p -DF_CPU=16000000UL -Os -std=gnu++11 -Wall -Wextra -Werror
  -ffunction-sections -fdata-sections -fno-exceptions -fno-threadsafe-statics
  -g0)
avr-g++ "${CFLAGS[@]}" -Wl,--gc-sections -o "$out/table.elf" src/table.cpp
avr-objcopy -O ihex -R .eeprom "$out/table.elf" "$out/table.hex"
avr-size "$out/table.elf" >&2
# RAM addresses the simulator presets (long-uptime tests); committed beside the HEX.
avr-nm "$out/table.elf" | awk '$3 == "usHi" || $3 == "usWraps" { printf "%s 0x%s\n", $3, $1 }' | sort > "$out/table.sym"
