"""The catalogs kept in step with the code: extract the templates, update every language's
catalog, and check them. ``python -m cogs.texts update`` rewrites ``locales/``; ``python -m
cogs.texts check`` (run by ``tests/texts/test_catalogs.py`` in ``make test`` and CI) says what is
wrong and exits 1.

What the check refuses:
- a template out of date with the code (a text added, changed or removed without ``update``);
- a language's catalog missing a message, holding a fuzzy or empty one, or a translation whose
  placeholders (``{name}``) differ from the source's;
- a catalog without the plural forms its language needs (CLDR: English 2, Polish 3);
- a text shown to people that is not marked for translation (``unmarked.py``);
- a translated rules document whose structure differs from the English (``rules_documents.py``).

Templates are written without source locations and sorted, so moving a line changes nothing; the
languages' catalogs carry a fixed date, so only real changes show in a diff.
"""

from __future__ import annotations

import copy
import io
import string
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from cogs.texts import DOMAINS, LANGUAGES, LOCALES, SOURCE, catalog_path, domain_of
from cogs.texts.sources import ROOT, module_name, source_files

# gettext's keywords, and discord.py's locale_str: slash commands' names, descriptions and choices
# (translated for Discord by cogs.texts.commands).
KEYWORDS = {**DEFAULT_KEYWORDS, "locale_str": None}
# Comments above a marked text that reach the translator ("# Translators: a bid, not a turn").
COMMENT_TAGS = ("Translators:",)
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
PROJECT = "game-night-referee"
HEADER = {
    "project": PROJECT,
    "version": "1",
    "copyright_holder": "the game-night referee's authors",
    "msgid_bugs_address": "the project's issue tracker",
    "last_translator": "the game-night referee's translators",
    "language_team": "the game-night referee's translators",
}


def extract(domain: str, files: Iterable[Path] | None = None) -> Catalog:
    """The template of one domain: every marked text of its modules, as ``pybabel extract`` finds
    them (Babel's Python extractor with gettext's default keywords)."""
    template = Catalog(domain=domain, creation_date=FIXED_DATE, fuzzy=False, **HEADER)
    for path in files if files is not None else source_files():
        if domain_of(module_name(path)) != domain:
            continue
        for _line, message, comments, context in extract_from_file(
            "python", str(path), keywords=KEYWORDS, comment_tags=COMMENT_TAGS, strip_comment_tags=True
        ):
            template.add(message, None, auto_comments=comments, context=context)
    if files is None:
        _data_texts(domain, template)
    return template


def _data_texts(domain: str, template: Catalog) -> None:
    """Texts kept as data rather than code: GiftTRAP's gift names (gifts.json), each with the
    context "gift" (cogs.drawings.gifttrap_cards.gift_name looks them up so) and its emoji and tags
    for the translator."""
    if domain != "gifttrap":
        return
    from rules.gifttrap.gifts import PACK_GIFTS, PRICES  # the engine's data, read only here

    for pack, gifts in sorted(PACK_GIFTS.items()):
        for gift in gifts:
            comment = (
                f"a gift of the {PRICES[pack]} pack, shown as {gift.emoji} and tagged "
                f"{', '.join(gift.tags)}: a short name (it is drawn on a small card, two lines at most)."
            )
            template.add(gift.name, None, auto_comments=[comment], context="gift")


def render(catalog: Catalog, *, template: bool) -> str:
    out = io.BytesIO()
    write_po(out, catalog, omit_header=template, no_location=True, sort_output=True, width=100)
    return out.getvalue().decode()


def template_path(domain: str) -> Path:
    return LOCALES / f"{domain}.pot"


def _updated(lang: str, domain: str, template: Catalog) -> Catalog:
    path = catalog_path(lang, domain)
    if path.exists():
        with path.open("rb") as po:
            catalog = read_po(po, locale=lang, domain=domain)
    else:
        catalog = Catalog(locale=lang, domain=domain, fuzzy=False, **HEADER)
    catalog.update(template, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    catalog.creation_date = catalog.revision_date = FIXED_DATE
    catalog.fuzzy = False
    if lang == SOURCE:
        # The source language's catalog says each text as written (a translator's reference).
        for message in catalog:
            if message.id:
                message.string = message.id
    return catalog


def updated_catalogs(domain: str, template: Catalog) -> dict[str, Catalog]:
    """Every language's catalog of ``domain`` brought in step with ``template``."""
    # Each language gets its own copy: Babel's update adds the template's new Message objects
    # themselves, and the source language's fills them in with their English, which every language
    # updated after it would then take for a translation (and the check for a translated text).
    return {lang: _updated(lang, domain, copy.deepcopy(template)) for lang in LANGUAGES}


def update() -> list[Path]:
    """Write every template and every language's catalog; return the files that changed."""
    changed: list[Path] = []
    for domain in DOMAINS:
        template = extract(domain)
        outputs = {template_path(domain): render(template, template=True)}
        for lang, catalog in updated_catalogs(domain, template).items():
            outputs[catalog_path(lang, domain)] = render(catalog, template=False)
        for path, text in outputs.items():
            if not path.exists() or path.read_text() != text:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
                changed.append(path)
    return changed


def fields(text: str) -> set[str]:
    """The placeholders of a text: {name} and {n} as str.format reads them."""
    found: set[str] = set()
    for _literal, name, _spec, _conversion in string.Formatter().parse(text):
        if name is not None:
            found.add(name.split(".")[0].split("[")[0])
    return found


def plural_count(lang: str) -> int:
    """How many plural forms gettext gives the language (from CLDR: English 2, Polish 3)."""
    return get_plural(lang.replace("-", "_")).num_plurals


def check_catalog(lang: str, domain: str, template: Catalog, catalog: Catalog) -> list[str]:
    problems: list[str] = []
    where = f"{catalog_path(lang, domain).relative_to(ROOT)}"
    if any(message.id for message in template) and catalog.num_plurals != plural_count(lang):
        problems.append(f"{where}: {catalog.num_plurals} plural forms, but {lang} needs {plural_count(lang)}")
    for source in template:
        if not source.id:
            continue
        message = catalog.get(source.id, context=source.context)
        label = f"{where}: {_show(source)}"
        if message is None:
            problems.append(f"{label}: not in the catalog (run python -m cogs.texts update)")
            continue
        problems.extend(f"{label}: {p}" for p in _check_message(lang, source, message, catalog.num_plurals))
    return problems


def _show(message: Message) -> str:
    ident = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return f"[{message.context}] {ident!r}" if message.context else repr(ident)


def _check_message(lang: str, source: Message, message: Message, plurals: int) -> list[str]:
    if message.fuzzy:
        return ["fuzzy (a translation to check)"]
    ids = list(source.id) if isinstance(source.id, tuple | list) else [source.id]
    strings: list[str] = (
        [s or "" for s in message.string]
        if isinstance(message.string, tuple | list)
        else [message.string or ""]
    )
    if len(ids) > 1 and len(strings) != plurals:
        return [f"{len(strings)} plural forms, {lang} needs {plurals}"]
    if any(not s for s in strings):
        return ["not translated"]
    wanted = set().union(*(fields(i) for i in ids if i))
    problems = []
    for form, text in enumerate(strings):
        try:
            got = fields(text)
        except ValueError as error:
            problems.append(f"form {form}: not a valid template ({error})")
            continue
        # A plural form may leave {n} out ("one card" for 1), never put another name in.
        missing = wanted - got - ({"n"} if len(ids) > 1 else set())
        if got - wanted or missing:
            problems.append(f"placeholders {sorted(got)} differ from the source's {sorted(wanted)}")
    return problems


def check() -> list[str]:
    """Everything wrong with the catalogs and the marking of texts, one line each."""
    from cogs.texts.unmarked import unmarked  # the scan reads every source file; only the check needs it

    problems: list[str] = []
    for domain in DOMAINS:
        template = extract(domain)
        path = template_path(domain)
        if not path.exists() or path.read_text() != render(template, template=True):
            problems.append(
                f"{path.relative_to(ROOT)}: out of date with the code (run python -m cogs.texts update)"
            )
        for lang in LANGUAGES:
            po = catalog_path(lang, domain)
            if not po.exists():
                problems.append(f"{po.relative_to(ROOT)}: missing (run python -m cogs.texts update)")
                continue
            with po.open("rb") as f:
                catalog = read_po(f, locale=lang, domain=domain)
            problems.extend(check_catalog(lang, domain, template, catalog))
    problems.extend(unmarked())
    from cogs.texts.rules_documents import check_documents  # reads the engines' documents

    problems.extend(check_documents())
    return problems
