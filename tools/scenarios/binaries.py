"""The binary files scenarios need, written byte by byte from their
specifications: ELF shared objects (SONAME, DT_NEEDED, RUNPATH, notes,
.nv_fatbin), fatbin containers, kernel modules' .modinfo and ld.so.cache."""

import json
import struct


def tiny_elf(soname, needed=(), runpath=None, rpath=None, machine=62, fwd_note=None, fatbin=None):
    """A minimal 64-bit little-endian shared object: a header, PT_LOAD over
    the whole file and PT_DYNAMIC with SONAME, NEEDED and RPATH/RUNPATH --
    what the dynamic loader (and gpudoctor) reads, and nothing else; with
    fwd_note or fatbin, also the section that carries it."""
    strings = b"\0"
    offsets = {}
    for text in [soname, *needed, runpath, rpath]:
        if text is not None and text not in offsets:
            offsets[text] = len(strings)
            strings += text.encode() + b"\0"
    strtab_offset = 64 + 2 * 56
    dynamic_offset = strtab_offset + ((len(strings) + 7) & ~7)
    entries = [(14, offsets[soname])] + [(1, offsets[name]) for name in needed]
    if runpath is not None:
        entries.append((29, offsets[runpath]))
    if rpath is not None:
        entries.append((15, offsets[rpath]))
    entries += [(5, strtab_offset), (10, len(strings)), (0, 0)]
    dynamic = b"".join(struct.pack("<qQ", tag, value) for tag, value in entries)
    size = dynamic_offset + len(dynamic)
    header = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8) + struct.pack(
        "<HHIQQQIHHHHHH", 3, machine, 1, 0, 64, 0, 0, 64, 56, 2, 64, 0, 0)
    load = struct.pack("<IIQQQQQQ", 1, 5, 0, 0, 0, size, size, 0x1000)
    dyn = struct.pack("<IIQQQQQQ", 2, 6, dynamic_offset, dynamic_offset, dynamic_offset, len(dynamic), len(dynamic), 8)
    body = header + load + dyn + strings
    elf = body + bytes(dynamic_offset - len(body)) + dynamic
    extra = []  # (name, type, data): found through the section headers
    if fwd_note is not None:
        # cuda-compat's libcuda: a .note.cuda.fwd_compatibility section
        # (owner "NVIDIA Corporation", JSON payload).
        owner, desc = b"NVIDIA Corporation\0", json.dumps(fwd_note).encode() + b"\0"
        pad = lambda data: data + bytes((4 - len(data) % 4) % 4)
        extra.append((".note.cuda.fwd_compatibility", 7, struct.pack("<III", len(owner), len(desc), 1) + pad(owner) + pad(desc)))
    if fatbin is not None:  # a framework's GPU code: fatbin_container entries
        extra.append((".nv_fatbin", 1, fatbin_container(fatbin)))
    if not extra:
        return elf
    names = b"\0"
    sections = struct.pack("<IIQQQQIIQQ", 0, 0, 0, 0, 0, 0, 0, 0, 4, 0)
    for name, kind, data in extra:
        offset = (len(elf) + 7) & ~7
        elf = elf + bytes(offset - len(elf)) + data
        sections += struct.pack("<IIQQQQIIQQ", len(names), kind, 0, 0, offset, len(data), 0, 0, 4, 0)
        names += name.encode() + b"\0"
    names_offset = len(elf)
    sections += struct.pack("<IIQQQQIIQQ", len(names), 3, 0, 0, names_offset, len(names) + 10, 0, 0, 4, 0)
    names += b".shstrtab\0"
    elf += names
    shoff = (len(elf) + 7) & ~7
    elf = elf + bytes(shoff - len(elf)) + sections
    count = len(extra) + 2
    # e_shoff, e_shentsize, e_shnum, e_shstrndx
    return elf[:40] + struct.pack("<Q", shoff) + elf[48:58] + struct.pack("<HHH", 64, count, count - 1) + elf[64:]


def tiny_module(modinfo):
    """A minimal kernel module (ET_REL) with a .modinfo section of NUL-ended
    key=value strings, as modinfo(8) and gpudoctor read it."""
    info = b"".join(f"{k}={v}".encode() + b"\0" for k, v in modinfo.items())
    shstrtab = b"\0.modinfo\0.shstrtab\0"
    info_offset = 64
    shstr_offset = info_offset + len(info)
    shoff = (shstr_offset + len(shstrtab) + 7) & ~7
    header = (b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8 +
              struct.pack("<HHIQQQIHHHHHH", 1, 62, 1, 0, 0, shoff, 0, 64, 0, 0, 64, 3, 2))
    body = header + info + shstrtab
    body += b"\0" * (shoff - len(body))
    null = b"\0" * 64
    modinfo_header = struct.pack("<IIQQQQIIQQ", 1, 1, 2, 0, info_offset, len(info), 0, 0, 1, 0)
    shstr_header = struct.pack("<IIQQQQIIQQ", 10, 3, 0, 0, shstr_offset, len(shstrtab), 0, 0, 1, 0)
    return body + null + modinfo_header + shstr_header


def fatbin_container(entries):
    """nvcc's fat binary container: a 16-byte header, then per entry a 64-byte
    header (kind 1 PTX / 2 SASS, PTX ISA or code version, architecture,
    flags) and its payload (8 bytes here)."""
    body = b""
    for kind, arch, major, minor in entries:
        header = struct.pack("<HHIQII", kind, 0x0101, 64, 8, 8, 0) + struct.pack("<HHI", minor, major, arch)
        header += struct.pack("<IIQQQ", 0, 0, 0x11, 0, 8)
        body += header + b"\0" * 8
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(body)) + body


def fatbin_elf(soname, entries, damaged=False):
    """A shared library whose only content is a .nv_fatbin section (what the
    application layer reads of libtorch_cuda.so: section headers and fatbin
    headers, never code)."""
    fatbin = fatbin_container(entries)
    if damaged:  # the container claims more bytes than its section has
        fatbin = fatbin[:8] + struct.pack("<Q", 1 << 40) + fatbin[16:]
    names = b"\0.nv_fatbin\0.shstrtab\0"
    data_at = 64
    names_at = data_at + len(fatbin)
    table_at = (names_at + len(names) + 7) & ~7
    header = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    header += struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 0, table_at, 0, 64, 56, 0, 64, 3, 2)
    sections = bytes(64)
    sections += struct.pack("<IIQQQQIIQQ", 1, 1, 2, 0, data_at, len(fatbin), 0, 0, 8, 0)
    sections += struct.pack("<IIQQQQIIQQ", 12, 3, 0, 0, names_at, len(names), 0, 0, 1, 0)
    body = header + fatbin + names
    return body + bytes(table_at - len(body)) + sections


def ld_cache(entries, flags=0x0303):
    """/etc/ld.so.cache in glibc's new format for (soname, path) pairs, all
    of one architecture (x86-64's flags 0x0303; aarch64's 0x0a03), in the
    given order."""
    base = 48 + 24 * len(entries)
    strings = b""
    table = b""
    for soname, path in entries:
        key = base + len(strings)
        strings += soname.encode() + b"\0"
        value = base + len(strings)
        strings += path.encode() + b"\0"
        table += struct.pack("<iIIIQ", flags, key, value, 0, 0)
    header = b"glibc-ld.so.cache1.1" + struct.pack("<IIB3xI12x", len(entries), len(strings), 2, 0)
    return header + table + strings
