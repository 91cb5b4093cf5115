"""Prints the size of each async function's frame in a Sluice binary, largest first.

Every async function has an "async function pointer" record beside its entry (symbols ending in
`Tu`): a 32-bit relative offset to the function, then the size of the context (frame) a caller
allocates for it on the task's allocator. Reading those records needs no instrumentation.
Usage: frame_sizes.py BINARY [REGEX], REGEX filtering the demangled names.
"""

import re
import struct
import subprocess
import sys


def sections(binary: str) -> list[tuple[int, int, int]]:
    """(address, file offset, size) of each allocated section."""
    found = []
    for line in subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        fields = line.replace("[ ", "[").split()
        if len(fields) > 6 and fields[0].startswith("["):
            try:
                found.append((int(fields[3], 16), int(fields[4], 16), int(fields[5], 16)))
            except ValueError:
                continue
    return [section for section in found if section[0]]


def main() -> None:
    binary = sys.argv[1]
    pattern = re.compile(sys.argv[2]) if len(sys.argv) > 2 else None
    data = open(binary, "rb").read()
    mapped = sections(binary)
    symbols = []
    for line in subprocess.run(["nm", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[2].endswith("Tu") and "Sluice" in fields[2]:
            symbols.append((int(fields[0], 16), fields[2]))
    names = subprocess.run(
        ["swift", "demangle", "--simplified", "--compact"],
        input="\n".join(symbol for _, symbol in symbols), capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    frames = []
    for (address, _), name in zip(symbols, names):
        for start, offset, size in mapped:
            if start <= address < start + size:
                record = data[offset + address - start:offset + address - start + 8]
                frames.append((struct.unpack("<iI", record)[1], name.replace("async function pointer to ", "")))
                break
    for size, name in sorted(frames, reverse=True):
        if pattern is None or pattern.search(name):
            print(size, name)


if __name__ == "__main__":
    main()
