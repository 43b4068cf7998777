"""A small seccomp filter for the sandbox, compiled here to classic BPF (no library, nothing
downloaded) and handed to `bwrap --seccomp FD`: `socket()`/`socketpair()` only for the address
families the network setting allows, no `io_uring` (its socket operation would bypass the
check), no x32 system calls, no foreign architecture. Everything else is allowed."""

from __future__ import annotations

import errno
import platform
import struct

AF_UNIX, AF_INET, AF_INET6, AF_NETLINK = 1, 2, 10, 16
FAMILIES = {
    False: (AF_UNIX, AF_INET, AF_INET6),  # network off: its own empty namespace (loopback)
    True: (AF_UNIX, AF_INET, AF_INET6, AF_NETLINK),  # netlink: address lookups
}
# machine → (audit arch, socket, socketpair); io_uring's calls are the same on both
ARCHES = {
    "x86_64": (0xC000003E, 41, 53),
    "aarch64": (0xC00000B7, 198, 199),
}
IO_URING = (425, 426, 427)
X32_BIT = 0x40000000

LD_ABS, JEQ, JGE, RET = 0x20, 0x15, 0x35, 0x06
ALLOW = 0x7FFF0000
ERRNO = 0x00050000
OFF_NR, OFF_ARCH, OFF_ARG0 = 0, 4, 16


def supported() -> bool:
    return platform.machine() in ARCHES


def program(network: bool, machine: str | None = None) -> bytes:
    """The filter as bytes (struct sock_filter[]), for this machine."""
    arch, sock, pair = ARCHES[machine or platform.machine()]
    deny_family = ERRNO | errno.EAFNOSUPPORT
    deny = ERRNO | errno.EPERM
    allowed = FAMILIES[network]
    code: list[tuple[int, int, int, int]] = [
        (LD_ABS, 0, 0, OFF_ARCH),
        (JEQ, 1, 0, arch),
        (RET, 0, 0, ERRNO | errno.ENOSYS),
        (LD_ABS, 0, 0, OFF_NR),
    ]
    if arch == ARCHES["x86_64"][0]:
        code += [(JGE, 0, 1, X32_BIT), (RET, 0, 0, deny)]
    for nr in IO_URING:
        code += [(JEQ, 0, 1, nr), (RET, 0, 0, ERRNO | errno.ENOSYS)]
    code += [(JEQ, 2, 0, sock), (JEQ, 1, 0, pair), (RET, 0, 0, ALLOW)]
    code.append((LD_ABS, 0, 0, OFF_ARG0))
    for i, family in enumerate(allowed):
        code.append((JEQ, len(allowed) - i, 0, family))
    code += [(RET, 0, 0, deny_family), (RET, 0, 0, ALLOW)]
    return b"".join(struct.pack("=HBBI", *ins) for ins in code)
