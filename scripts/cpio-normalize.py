#!/usr/bin/env python3
"""Copy a (possibly concatenated) newc cpio archive with every mtime set to
0 and inode numbers renumbered in order, so two builds of the same files
are byte-identical.  Usage: cpio-normalize.py IN OUT"""
import sys


def main(src, dst):
    data = bytearray(open(src, "rb").read())
    pos, ino = 0, 1
    while pos < len(data):
        if data[pos] == 0:      # padding between concatenated archives
            pos += 1
            continue
        if data[pos:pos + 6] != b"070701":
            sys.exit("cpio-normalize: not newc at offset %d" % pos)
        field = lambda i: int(data[pos + 6 + 8 * i:pos + 14 + 8 * i], 16)
        namesize, filesize = field(11), field(6)
        data[pos + 6:pos + 14] = b"%08X" % ino       # c_ino
        data[pos + 46:pos + 54] = b"00000000"        # c_mtime
        ino += 1
        pos += (110 + namesize + 3) & ~3
        pos += (filesize + 3) & ~3
    open(dst, "wb").write(data)


if __name__ == "__main__":
    main(*sys.argv[1:3])
