"""Where CRAG questions come from: every shape the official files ship in, read as one stream of lines.

`--data` names one or more of (in the order given; a folder's files and a glob's matches in name
order, shard 2 before shard 10):

- a JSONL file, plain or compressed (bz2, gzip, xz): Tasks 1-2's `crag_task_1_and_2_dev_v4.jsonl.bz2`;
- a tar archive, plain or compressed, whose JSONL members (plain or compressed, in any folder of it)
  are read in the archive's order, streamed, never unpacked to disk: Task 3's
  `crag_task_3_dev_v4.tar.bz2`; a zip archive likewise;
- the parts of a file split for download (`….tar.bz2.part1`, `.part2`, ...): naming one part, or
  all, reads them all joined in order, as `cat` would; a missing part is refused with that command;
- a folder holding any of these (searched recursively), or a glob matching them (quote it).

What a file is comes from its first bytes, not its name; inside an archive or a folder, the files
read are those named like JSONL (`.jsonl`, `.ndjson`, optionally compressed) or like an archive;
other members (a README, `._` resource forks) are skipped and logged. A line is located as
`file:line`, or `archive:member:line` inside an archive (`evaluation/data.py` turns lines into
questions and checks them).
"""

from __future__ import annotations

import bz2
import glob
import gzip
import io
import lzma
import re
import shlex
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, BinaryIO, Protocol

from loguru import logger

DATA_SUFFIXES = (".jsonl", ".ndjson")
COMPRESSED_SUFFIXES = (".bz2", ".gz", ".xz")
ARCHIVE_SUFFIXES = (".tar", ".tar.bz2", ".tbz2", ".tbz", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".zip")
PART = re.compile(r"^(?P<whole>.+)\.part(?P<number>\d+)$", re.IGNORECASE)
GLOB_CHARACTERS = re.compile(r"[*?\[]")
READ_BUFFER_BYTES = 1 << 20
# Compressed files inside compressed files (a .jsonl.bz2 in a .tar.bz2) are opened this deep at most.
MAX_NESTING = 4

_BZ2, _GZIP, _XZ, _ZIP, _ZSTD = b"BZh", b"\x1f\x8b", b"\xfd7zXZ\x00", b"PK\x03\x04", b"\x28\xb5\x2f\xfd"
_TAR_HEADER = 512
_READ_ERRORS = (OSError, EOFError, tarfile.TarError, zipfile.BadZipFile, zlib.error, lzma.LZMAError)


class _Readable(Protocol):
    def read(self, size: int = ..., /) -> bytes: ...


class DataError(ValueError):
    """The input data cannot be used: one line naming the file (and line) and what to do."""


class BrokenFile(DataError):
    """A file that cannot be read on (truncated, corrupt, a part missing); `reason` says why."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Source:
    """One file as given, or the parts of one split file (read joined, in order)."""

    paths: tuple[Path, ...]

    @property
    def label(self) -> str:
        """The file, or `whole.part1..partN`."""
        if len(self.paths) == 1:
            return str(self.paths[0])
        return f"{self.paths[0]}..part{len(self.paths)}"

    @property
    def size(self) -> int:
        return sum(path.stat().st_size for path in self.paths)


@dataclass(frozen=True)
class Line:
    """One line of a source: where it is (`file` or `archive:member`), its number there, its bytes."""

    where: str
    number: int
    text: bytes


def find_sources(specs: Sequence[str | Path]) -> list[Source]:
    """The sources `--data` names, in order; each file once (a repeat is logged and skipped)."""
    sources: list[Source] = []
    seen: set[Path] = set()
    for spec in specs:
        for source in _sources_of(str(spec)):
            if any(path.resolve() in seen for path in source.paths):
                logger.warning(f"{source.label} is named twice in --data: read once")
                continue
            seen.update(path.resolve() for path in source.paths)
            sources.append(source)
    if not sources:
        raise DataError("No data named: pass --data with a CRAG questions file, archive or folder")
    return sources


def read_lines(
    sources: Sequence[Source], on_bytes: Callable[[int], None] | None = None
) -> Generator[Line, None, None]:
    """Every line of every source, in order, streamed; `on_bytes` hears how many bytes of the files
    were read (for a progress bar). A file that cannot be read raises DataError."""
    for source in sources:
        if len(source.paths) == 1 and _starts_with(source.paths[0], _ZIP):  # read in place: it seeks
            with zipfile.ZipFile(source.paths[0]) as archive:
                yield from _guarded(_read_zip(archive, source.label, depth=0), source, source.label)
            if on_bytes is not None:
                on_bytes(source.size)
            continue
        with _JoinedFiles(source.paths, on_bytes) as raw:
            stream = io.BufferedReader(raw, buffer_size=READ_BUFFER_BYTES)
            yield from _guarded(_read(stream, source.label, depth=0), source, source.label)


def _sources_of(spec: str) -> list[Source]:
    path = Path(spec)
    if not path.exists() and GLOB_CHARACTERS.search(spec):
        matches = sorted((Path(match) for match in glob.glob(spec, recursive=True)), key=natural_key)
        if not matches:
            raise DataError(f"No file matches --data {spec}")
        folders = [source for match in matches if match.is_dir() for source in _sources_of(str(match))]
        return folders + _group_parts([match for match in matches if not match.is_dir()], explicit=True)
    if path.is_dir():
        found = [
            p
            for p in path.rglob("*")
            if p.is_file() and _readable_name(p.name) and not _hidden(p.relative_to(path))
        ]
        sources = _group_parts(sorted(found, key=natural_key), explicit=False)
        if not sources:
            raise DataError(
                f"{path} is a folder with no CRAG data in it (.jsonl, .jsonl.bz2, .tar.bz2, ... files)"
            )
        return sources
    part = PART.match(path.name)
    if part and path.is_file():
        return [_parts_of(path.parent / part["whole"])]
    if not path.is_file():
        if path.with_name(path.name + ".part1").is_file():
            return [_parts_of(path)]  # the joined file's name, and only its parts are there
        kind = " (not a regular file)" if path.exists() else ""
        raise DataError(
            f"No data file {path.resolve()}{kind}: pass --data with a CRAG questions file (.jsonl, "
            ".jsonl.bz2), the Task 3 archive (.tar.bz2 or its parts) or a folder of them"
        )
    return [Source((path,))]


def _group_parts(paths: list[Path], explicit: bool) -> list[Source]:
    """Files in order, the parts of one split file joined into one source where the first part is.
    In a folder (not `explicit`), parts whose joined file is there too are left to that file."""
    sources: list[Source] = []
    wholes: set[Path] = set()
    present = {path.resolve() for path in paths}
    for path in paths:
        part = PART.match(path.name)
        if not part:
            sources.append(Source((path,)))
            continue
        whole = path.parent / part["whole"]
        if whole.resolve() in wholes:
            continue
        wholes.add(whole.resolve())
        if not explicit and whole.resolve() in present:
            logger.info(f"{whole} is there whole: its parts beside it are not read again")
            continue
        sources.append(_parts_of(whole))
    return sources


def _parts_of(whole: Path) -> Source:
    """The parts `whole.part1`, `.part2`, ... found beside `whole`, refused unless numbered 1..N."""
    numbered = {}
    for candidate in whole.parent.glob(glob.escape(whole.name) + ".part*"):
        match = PART.match(candidate.name)
        if match and match["whole"] == whole.name and candidate.is_file():
            numbered[int(match["number"])] = candidate
    missing = sorted(set(range(1, max(numbered) + 1)) - set(numbered)) if numbered else [1]
    if missing:
        raise DataError(
            f"{whole}: part {', '.join(map(str, missing))} of the split file is missing beside the others; "
            f"download every part, then join them: {join_command(whole, len(numbered) + len(missing))}"
        )
    return Source(tuple(numbered[number] for number in sorted(numbered)))


def join_command(whole: Path, parts: int | None = None) -> str:
    """The shell command that joins the parts of `whole` in order (`part*` sorts part10 before part2:
    past nine parts they are listed)."""
    name = shlex.quote(str(whole))
    if parts is not None and parts > 9:
        return f"cat {' '.join(f'{name}.part{number}' for number in range(1, parts + 1))} > {name}"
    return f"cat {name}.part* > {name}"


def natural_key(path: Path | str) -> list[object]:
    """Name order with numbers read as numbers: shard_2 before shard_10."""
    return [int(piece) if piece.isdigit() else piece.lower() for piece in re.split(r"(\d+)", str(path))]


def _readable_name(name: str) -> bool:
    """A file of a folder or a member of an archive that holds questions (by its name)."""
    lowered = PART.sub(r"\g<whole>", name.lower()) if PART.match(name) else name.lower()
    if lowered.startswith("."):  # hidden files, macOS `._` resource forks
        return False
    for compression in ("", *COMPRESSED_SUFFIXES):
        if any(lowered.endswith(suffix + compression) for suffix in DATA_SUFFIXES):
            return True
    return lowered.endswith(ARCHIVE_SUFFIXES)


def _hidden(relative: Path) -> bool:
    return any(part.startswith(".") or part == "__MACOSX" for part in relative.parts)


def _starts_with(path: Path, magic: bytes) -> bool:
    with path.open("rb") as stream:
        return stream.read(len(magic)) == magic


def _guarded(lines: Iterator[Line], source: Source, where: str) -> Iterator[Line]:
    """`lines`, the errors of a broken file (truncated, corrupt, a part missing) raised as BrokenFile."""
    last: Line | None = None
    try:
        for line in lines:
            last = line
            yield line
    except DataError:
        raise
    except _READ_ERRORS as error:
        raise BrokenFile(_broken(source, where, last, error), str(error) or type(error).__name__) from None


def _broken(source: Source, where: str, last: Line | None, error: BaseException) -> str:
    after = f" after {last.where}:{last.number}" if last else " before its first line"
    reason = str(error) or type(error).__name__
    ended = isinstance(error, EOFError) or "unexpected end" in reason.lower()
    if len(source.paths) > 1 and ended:
        first = PART.match(source.paths[0].name)
        whole = source.paths[0].parent / (first["whole"] if first else source.paths[0].name)
        return (
            f"{where}: the parts end before the file does{after} (a part is missing or cut short): "
            f"download every part, then join them: {join_command(whole)}"
        )
    what = "truncated" if ended else "corrupt"
    return f"{where}: the file is {what}{after} ({reason}): download it again"


def _read(stream: _Readable, where: str, depth: int, decompressed: bool = False) -> Iterator[Line]:
    """The lines of one stream, whatever it holds: text, a compressed stream or an archive
    (`decompressed`: this stream is what a compressed one held)."""
    head = stream.read(_TAR_HEADER)
    buffered = io.BufferedReader(_Prefixed(head, stream), buffer_size=READ_BUFFER_BYTES)
    if depth > MAX_NESTING:
        raise DataError(f"{where}: compressed more than {MAX_NESTING} times over; decompress it first")
    decompressor = _decompressor(head, buffered)
    if decompressor is not None:
        yield from _read(decompressor, where, depth + 1, decompressed=True)
    elif head.startswith(_ZSTD):
        raise DataError(f"{where}: zstd-compressed; decompress it first (zstd -d) and pass the result")
    elif head.startswith(_ZIP):  # inside another file: read into memory, since a zip is read by seeking
        with zipfile.ZipFile(io.BytesIO(buffered.read())) as archive:
            yield from _read_zip(archive, where, depth)
    elif _is_tar_header(head):
        yield from _read_tar(buffered, where, depth)
    else:
        suffixes = (*COMPRESSED_SUFFIXES, *ARCHIVE_SUFFIXES)
        named = next((suffix for suffix in suffixes if where.lower().endswith(suffix)), "")
        looks_like_json = head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")
        if named and head and not decompressed and not looks_like_json:
            raise DataError(
                f"{where}: named like a {named} file but neither compressed nor JSON text "
                f"(it starts with {head[:8]!r}): the file is corrupt; download it again"
            )
        yield from _read_text(buffered, where)


def _decompressor(head: bytes, stream: BinaryIO) -> _Readable | None:
    if head.startswith(_BZ2):
        return bz2.BZ2File(stream)
    if head.startswith(_GZIP):
        return gzip.GzipFile(fileobj=stream)
    if head.startswith(_XZ):
        return lzma.LZMAFile(stream)
    return None


def _read_text(stream: IO[bytes], where: str) -> Iterator[Line]:
    for number, text in enumerate(stream, start=1):
        yield Line(where, number, text)


def _read_tar(stream: IO[bytes], where: str, depth: int) -> Iterator[Line]:
    skipped: list[str] = []
    read = 0
    with tarfile.open(fileobj=stream, mode="r|") as archive:
        for member in archive:
            if not member.isfile():
                continue
            if not _readable_name(Path(member.name).name):
                skipped.append(member.name)
                continue
            content = archive.extractfile(member)
            if content is None:
                continue
            read += 1
            yield from _read(content, f"{where}:{member.name}", depth + 1)
    _log_members(where, read, skipped)


def _read_zip(archive: zipfile.ZipFile, where: str, depth: int) -> Iterator[Line]:
    skipped: list[str] = []
    read = 0
    for info in archive.infolist():
        if info.is_dir():
            continue
        if not _readable_name(Path(info.filename).name):
            skipped.append(info.filename)
            continue
        read += 1
        with archive.open(info) as content:
            yield from _read(content, f"{where}:{info.filename}", depth + 1)
    _log_members(where, read, skipped)


def _log_members(where: str, read: int, skipped: list[str]) -> None:
    if skipped:
        shown = ", ".join(skipped[:5]) + (f" and {len(skipped) - 5} more" if len(skipped) > 5 else "")
        logger.info(f"{where}: read {read} JSONL member(s), skipped {len(skipped)} other(s): {shown}")
    if not read:
        raise DataError(f"{where}: the archive holds no JSONL member (.jsonl, .jsonl.bz2, ...)")


def _is_tar_header(head: bytes) -> bool:
    if len(head) < _TAR_HEADER:
        return False
    if head[257:262] == b"ustar":
        return True
    try:  # an old (v7) header has no magic: its checksum decides
        tarfile.TarInfo.frombuf(head[:_TAR_HEADER], "utf-8", "surrogateescape")
    except (tarfile.TarError, ValueError):
        return False
    return True


class _Prefixed(io.RawIOBase):
    """The bytes already read from a stream (to see what it holds), then the rest of it."""

    def __init__(self, head: bytes, rest: _Readable):
        self._head = memoryview(head)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self._head:
            count = min(len(buffer), len(self._head))
            buffer[:count] = self._head[:count]
            self._head = self._head[count:]
            return count
        if hasattr(self._rest, "readinto"):
            return self._rest.readinto(buffer)
        data = self._rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


class _JoinedFiles(io.RawIOBase):
    """Files read one after the other as one stream (the parts of a split file; or one file),
    reporting each read's size to `on_bytes`."""

    def __init__(self, paths: Sequence[Path], on_bytes: Callable[[int], None] | None):
        self._paths = list(paths)
        self._on_bytes = on_bytes
        self._current: io.FileIO | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while True:
            if self._current is None:
                if not self._paths:
                    return 0
                self._current = self._paths.pop(0).open("rb", buffering=0)
            count = self._current.readinto(buffer)
            if count:
                if self._on_bytes is not None:
                    self._on_bytes(count)
                return count
            self._current.close()
            self._current = None

    def close(self) -> None:
        if self._current is not None:
            self._current.close()
            self._current = None
        super().close()
