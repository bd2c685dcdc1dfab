#!/usr/bin/env python3
"""Convert CSV/TSV data to a GitHub-flavoured Markdown table.

Standard library only. Reads a file (or '-' for standard input) and prints
the table to standard output, or to the file given with -o.
"""
import argparse
import csv
import io
import sys

SNIFF_DELIMITERS = ",;\t|"


def fail(message):
    print("csv_to_md: error: " + message, file=sys.stderr)
    sys.exit(1)


def warn(message):
    print("csv_to_md: warning: " + message, file=sys.stderr)


def is_number(text):
    cleaned = text.replace(",", "").replace("_", "").strip()
    if cleaned.startswith(("+", "-")):
        cleaned = cleaned[1:]
    if cleaned.endswith("%"):
        cleaned = cleaned[:-1]
    if not cleaned:
        return False
    try:
        float(cleaned)
    except ValueError:
        return False
    return True


def escape_cell(text):
    text = text.strip().replace("\\", "\\\\").replace("|", "\\|")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return "<br>".join(part.strip() for part in text.split("\n"))


def read_text(path, encoding):
    try:
        if path == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                raw = handle.read()
    except FileNotFoundError:
        fail("file not found: " + path)
    except IsADirectoryError:
        fail("expected a file but got a directory: " + path)
    except PermissionError:
        fail("permission denied: " + path)
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        fail("could not decode input as %s (%s); try --encoding latin-1" % (encoding, exc.reason))
    except LookupError:
        fail("unknown encoding: " + encoding)


def parse_rows(text, delimiter):
    if delimiter is None:
        sample = text[:4096]
        try:
            delimiter = csv.Sniffer().sniff(sample, delimiters=SNIFF_DELIMITERS).delimiter
        except csv.Error:
            delimiter = ","
    elif delimiter in ("\\t", "tab", "TAB"):
        delimiter = "\t"
    if len(delimiter) != 1:
        fail("--delimiter must be a single character, got %r" % delimiter)
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as exc:
        fail("malformed CSV: %s" % exc)
    return [row for row in rows if any(cell.strip() for cell in row)]


def build_table(rows, has_header, max_rows):
    if has_header:
        header, body = rows[0], rows[1:]
    else:
        width = max(len(row) for row in rows)
        header, body = ["Column %d" % (i + 1) for i in range(width)], rows
    width = len(header)
    padded = 0
    for index, row in enumerate(body, start=2 if has_header else 1):
        if len(row) > width:
            fail("row %d has %d cells but the header has %d" % (index, len(row), width))
        if len(row) < width:
            row.extend([""] * (width - len(row)))
            padded += 1
    if padded:
        warn("padded %d short row(s) with empty cells" % padded)
    omitted = 0
    if max_rows is not None and len(body) > max_rows:
        omitted = len(body) - max_rows
        body = body[:max_rows]
    aligns = []
    for col in range(width):
        values = [row[col] for row in body if row[col].strip()]
        aligns.append("---:" if values and all(is_number(v) for v in values) else "---")
    lines = ["| " + " | ".join(escape_cell(c) or " " for c in header) + " |"]
    lines.append("| " + " | ".join(aligns) + " |")
    for row in body:
        lines.append("| " + " | ".join(escape_cell(c) for c in row) + " |")
    if omitted:
        lines.append("")
        lines.append("_%d more row(s) not shown._" % omitted)
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(
        prog="csv_to_md.py",
        description="Convert CSV/TSV data to a Markdown table.",
        epilog="example: python3 scripts/csv_to_md.py data.csv -o table.md",
    )
    parser.add_argument("input", help="path to the CSV file, or - for standard input")
    parser.add_argument("--delimiter", help="field delimiter (default: sniffed; use 'tab' for TSV)")
    parser.add_argument("--no-header", action="store_true", help="treat the first row as data")
    parser.add_argument("--max-rows", type=int, help="show at most this many data rows")
    parser.add_argument("--encoding", default="utf-8-sig", help="input encoding (default: utf-8-sig)")
    parser.add_argument("-o", "--output", help="write the table to this file instead of stdout")
    args = parser.parse_args()

    if args.max_rows is not None and args.max_rows < 1:
        fail("--max-rows must be at least 1")
    rows = parse_rows(read_text(args.input, args.encoding), args.delimiter)
    if not rows:
        fail("input is empty: " + args.input)
    table = build_table(rows, not args.no_header, args.max_rows)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(table)
        except OSError as exc:
            fail("cannot write %s: %s" % (args.output, exc.strerror))
    else:
        sys.stdout.write(table)


if __name__ == "__main__":
    main()
