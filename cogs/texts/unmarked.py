"""The scan for texts shown to people that are not marked for translation.

A text literal (a string or an f-string) in the bot, the cogs, the engines or the database layer is
*shown* when it reads as prose (two words or more: "Your turn", "Round 2 over.") or when it goes
where Discord shows text (a ``label=``, ``placeholder=``, ``title=``, ``description=``,
``content=``, ``name=``/``value=`` of a field, ``text=`` of a footer, the reason of a
``Refusal``). A caught error's own text shown there (``Refusal(str(error))``) is a finding too:
its words are the raiser's, in no catalog (a caught ``Refusal`` is worded already). It is
*marked* when it is the message of a gettext call (``gettext``,
``ngettext``, ``pgettext``, ``npgettext``, ``N_``); a call with an f-string or a computed text as
its message is itself a finding (the extractor cannot read it).

Not texts for people, and passed over: docstrings; what goes to the operator (``log.*``,
``logging``, ``print``, ``argparse``, ``warnings``), assertions and the built-in exceptions
raised for bugs, a data error's English (``OptionError``: people read its code, worded), and a
slash-command choice's value; SQL; regular expressions; a literal used as a key, a compared value
or a subscript. A literal the scan misreads says why in a ``# text: …`` comment at the end of its
first or last line, or alone on the line above it (for example ``# text: a custom_id``): that is
the one way to pass a literal, and a reader sees it.

Texts that were shown before the catalogs existed, and have not moved to them yet, are listed in
``locales/unmarked.txt`` (file and text): the scan fails on any other, so none is added, and it
fails on a listed one that is gone, so the list only shrinks.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from cogs.texts.sources import ROOT, source_files

BASELINE = ROOT / "locales" / "unmarked.txt"
MARKERS = frozenset({"gettext", "ngettext", "pgettext", "npgettext", "N_", "_", "locale_str"})
# Where Discord shows a keyword argument's text.
SHOWN_KEYWORDS = frozenset(
    {"label", "placeholder", "title", "description", "content", "name", "value", "text", "reason", "summary"}
)
# Calls whose first argument is shown as it is.
SHOWN_CALLS = frozenset(
    {"Refusal", "TextDisplay", "send_message", "send", "reply", "edit_message", "followup"}
)
# Errors whose text is already worded for people (cogs.table.common.Refusal).
WORDED_ERRORS = frozenset({"Refusal"})
# Calls whose ``value=`` is data (a slash command's choice: its name is shown, its value is what
# the command receives), unlike an embed field's.
VALUE_CALLS = frozenset({"Choice"})
OPERATOR_CALLS = frozenset(
    {
        "print",
        "debug",
        "info",
        "warning",
        "warn",
        "error",
        "exception",
        "critical",
        "add_argument",
        "ArgumentParser",
        "add_parser",
        "add_argument_group",
        "exit",
        "text",  # sqlalchemy.text: SQL
        "compile",
        "match",
        "fullmatch",
        "search",
        "sub",
        "split",
        "findall",
        "finditer",
        "startswith",
        "endswith",
        "fnmatch",
        "strftime",
        "strptime",
        "execute",
        "exec_driver_sql",
    }
)
# Errors that carry their meaning as data (a code and its values, worded for people where they are
# shown): their English text is for the operator, scenario files and the command line.
DATA_ERRORS = frozenset({"OptionError"})
BUILTIN_ERRORS = frozenset(
    name for name in dir(builtins) if name.endswith(("Error", "Exception", "Exit", "Iteration"))
)
PROSE = re.compile(r"[A-Za-z]{2,}[’',;:]?\s+[A-Za-z(\"“]|[A-Za-z]{2,}[.!?]$")
PRAGMA = re.compile(r"#\s*text:")


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    text: str

    def key(self) -> str:
        return f"{self.path}: {self.text}"


def _literal(node: ast.expr) -> str | None:
    """The text of a literal: a string, or an f-string with its fields as {…}."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{…}" for v in node.values)  # type: ignore[misc]
    return None


def _type_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else "?"


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and _literal(body[0].value) is not None:
                found.add(id(body[0].value))
    return found


class _Scan(ast.NodeVisitor):
    def __init__(self, path: str, lines: list[str]) -> None:
        self.path, self.lines = path, lines
        self.findings: list[Finding] = []
        self.passed: set[int] = set()  # ids of literal nodes that are not texts for people
        self.shown: set[int] = set()  # ids of literal nodes Discord shows whatever they say
        self.caught: dict[str, set[str]] = {}  # a name bound by ``except … as name``: what it catches

    def _pass_over(self, node: ast.AST) -> None:
        for child in ast.walk(node):
            self.passed.add(id(child))

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            kinds = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type] if node.type else []
            self.caught[node.name] = {_type_name(k) for k in kinds} or {"BaseException"}
        self.generic_visit(node)

    def _error_text(self, node: ast.expr) -> None:
        """A caught error's own text shown (``Refusal(str(error))``, ``f"{error}"``): its words are
        whatever raised it wrote, in no catalog. A Refusal's text is worded already."""
        names: list[str] = []
        if isinstance(node, ast.Call) and _call_name(node) == "str" and node.args:
            names = [node.args[0].id] if isinstance(node.args[0], ast.Name) else []
        elif isinstance(node, ast.JoinedStr):
            names = [
                v.value.id
                for v in node.values
                if isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name)
            ]
        for name in names:
            caught = self.caught.get(name)
            if caught and not caught <= WORDED_ERRORS:
                self._find(node, f"the text of a caught {'/'.join(sorted(caught))} ({name})")

    def visit_Call(self, node: ast.Call) -> None:
        name = _call_name(node)
        if name in MARKERS:
            message = node.args[0] if node.args else None
            if name in ("pgettext", "npgettext") and len(node.args) > 1:
                message = node.args[1]
            if isinstance(message, ast.JoinedStr):
                self.shown.add(id(message))  # the extractor cannot read an f-string: always a finding
            for arg in node.args:
                if isinstance(arg, ast.Constant):
                    self.passed.add(id(arg))
        elif name in OPERATOR_CALLS or name in BUILTIN_ERRORS or name in DATA_ERRORS:
            self._pass_over(node)
        else:
            if name in SHOWN_CALLS and node.args:
                self.shown.add(id(node.args[0]))
                self._error_text(node.args[0])
            for keyword in node.keywords:
                if name in VALUE_CALLS and keyword.arg == "value":
                    self._pass_over(keyword.value)  # what the command receives, never shown
                elif keyword.arg in SHOWN_KEYWORDS:
                    self.shown.add(id(keyword.value))
                    self._error_text(keyword.value)
        self.generic_visit(node)

    def visit_Assert(self, node: ast.Assert) -> None:
        self._pass_over(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self._pass_over(node.slice)
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        self._pass_over(node)

    def visit_Dict(self, node: ast.Dict) -> None:
        for key in node.keys:
            if key is not None:
                self._pass_over(key)
        self.generic_visit(node)

    def visit_match_case(self, node: ast.match_case) -> None:
        self._pass_over(node.pattern)
        self.generic_visit(node)

    def _find(self, node: ast.expr, text: str) -> None:
        line = self.lines[node.lineno - 1] if node.lineno <= len(self.lines) else ""
        end = (
            self.lines[(node.end_lineno or node.lineno) - 1]
            if (node.end_lineno or 0) <= len(self.lines)
            else ""
        )
        above = self.lines[node.lineno - 2].strip() if node.lineno >= 2 else ""
        if PRAGMA.search(line) or PRAGMA.search(end) or (above.startswith("#") and PRAGMA.search(above)):
            return
        self.findings.append(Finding(self.path, node.lineno, " ".join(text.split())))

    def check(self, node: ast.expr) -> None:
        if id(node) in self.passed:
            return
        text = _literal(node)
        if text is None:
            return
        letters = re.sub(r"\{…\}", "", text)
        if not re.search(r"[A-Za-z]{2,}", letters):
            return
        if id(node) in self.shown or PROSE.search(letters):
            self._find(node, text)


def scan_source(source: str, path: str) -> list[Finding]:
    tree = ast.parse(source)
    scan = _Scan(path, source.splitlines())
    scan.passed |= _docstrings(tree)
    scan.visit(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for value in node.values:  # an f-string's parts are scanned as the whole
                scan.passed.add(id(value))
        if isinstance(node, ast.Constant | ast.JoinedStr):
            scan.check(node)
    return scan.findings


def scan_file(path: Path) -> list[Finding]:
    return scan_source(path.read_text(), str(path.relative_to(ROOT)))


def findings() -> list[Finding]:
    found: list[Finding] = []
    for path in source_files():
        if path.parent.name == "texts" and path.parent.parent.name == "cogs":
            continue  # this package's own examples
        found.extend(scan_file(path))
    return found


def baseline() -> Counter[str]:
    if not BASELINE.exists():
        return Counter()
    lines = BASELINE.read_text().splitlines()
    return Counter(line for line in lines if line and not line.startswith("#"))


BASELINE_HEADER = """\
# Texts shown to people that are not in a catalog yet: "file: text", one a line. The scan
# (cogs/texts/unmarked.py) fails on an unmarked text not listed here, and on a listed one that is
# gone: move texts to the catalogs and delete their lines; never add one.
"""


def write_baseline() -> None:
    keys = sorted(f.key() for f in findings())
    BASELINE.write_text(BASELINE_HEADER + "".join(f"{k}\n" for k in keys))


def unmarked() -> list[str]:
    """One line per text shown but not marked (and not listed), and per listed text now gone."""
    found = findings()
    allowed = baseline()
    seen = Counter(f.key() for f in found)
    problems = []
    for finding in found:
        if seen[finding.key()] > allowed[finding.key()]:
            problems.append(f"{finding.path}:{finding.line}: not marked for translation: {finding.text!r}")
    for key, count in (allowed - seen).items():
        problems.append(f"{BASELINE.relative_to(ROOT)}: listed {count}× but gone, delete the line: {key}")
    return problems
