"""The catalogs stay in step with the code, and the check that keeps them so can fail.

``python -m cogs.texts check`` runs here in ``make test`` (and so in CI): a template out of date, a
catalog missing a message or a plural form, a broken placeholder, or a text shown to people and
not marked for translation fails this file. The tests after the first feed the check each of
those faults and require it to say so (each was also seen to pass with the fault's branch of the
check removed, which is what makes them worth having).
"""

from __future__ import annotations

from babel.messages.catalog import Catalog

from cogs.texts import DOMAINS, LANGUAGES, Texts, domain_of, speaking
from cogs.texts.catalogs import (
    check,
    check_catalog,
    extract,
    fields,
    render,
    template_path,
    updated_catalogs,
)
from cogs.texts.unmarked import scan_source


def test_the_catalogs_are_in_step_with_the_code() -> None:
    problems = check()
    assert not problems, "\n".join(problems[:40])


def test_every_domain_and_language_has_its_files() -> None:
    for domain in DOMAINS:
        assert template_path(domain).exists()
    assert "en" in LANGUAGES


def test_domains_follow_the_module() -> None:
    assert domain_of("cogs.zipzap") == "zipzap"
    assert domain_of("cogs.drawings.gifttrap_panel") == "gifttrap"
    assert domain_of("rules.spytrap.drawing") == "spytrap"
    assert domain_of("cogs.table.lobby") == "table"
    assert domain_of("cogs.help") == "table"


def test_an_unmarked_text_is_found() -> None:
    source = '''
import discord
def panel(count):
    """A docstring is not shown."""
    log.info("a line for the operator only")
    embed = discord.Embed(title="Your hand")
    button = Button(label="Refresh")
    shown = f"You have {count} cards left."
    marked = T.gettext("Your turn, {name}.", name="bea")
    forced = T.gettext(f"Round {count} over")
    key = data["some key here"]
    passed = "Two words"  # text: a fixture's own words
    raise Refusal("Not now.")
'''
    found = {f.text for f in scan_source(source, "cogs/example.py")}
    assert found == {
        "Your hand",
        "Refresh",
        "You have {…} cards left.",
        "Round {…} over",
        "Not now.",
    }


def test_a_broken_placeholder_and_missing_plural_forms_are_found() -> None:
    template = Catalog(locale="en", domain="table")
    template.add("Your turn, {name}.")
    template.add(("{n} card", "{n} cards"))
    polish = Catalog(locale="pl", domain="table")
    polish.add("Your turn, {name}.", "Twoja kolej, {imie}.")
    polish.add(("{n} card", "{n} cards"), ("{n} karta", "{n} karty"))
    problems = check_catalog("pl", "table", template, polish)
    assert any("placeholders ['imie']" in p for p in problems), problems
    assert any("2 plural forms, pl needs 3" in p for p in problems), problems
    polish = Catalog(locale="pl", domain="table")
    polish.add("Your turn, {name}.", "Twoja kolej, {name}.")
    polish.add(("{n} card", "{n} cards"), ("{n} karta", "{n} karty", "{n} kart"))
    assert check_catalog("pl", "table", template, polish) == []


def test_a_missing_or_untranslated_message_is_found() -> None:
    template = Catalog(locale="en", domain="table")
    template.add("Deal")
    template.add("Pass", context="bid")
    german = Catalog(locale="de", domain="table")
    german.add("Deal", "")
    problems = check_catalog("de", "table", template, german)
    assert any("'Deal': not translated" in p for p in problems), problems
    assert any("[bid] 'Pass': not in the catalog" in p for p in problems), problems


def test_a_template_out_of_date_is_found(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A marked text in a module that the template lacks makes the check say the template is out
    of date. The module is written in tmp_path and put among the sources by hand: written into
    cogs/ (as before), other test files scanning cogs/ on other workers saw it now and then."""
    from cogs.texts import catalogs

    module = tmp_path / "zz_catalog_probe.py"
    module.write_text(
        'from cogs.texts import Texts\nT = Texts(__name__)\nT.gettext("A text nobody extracted")\n'
    )
    files, name_of = catalogs.source_files, catalogs.module_name
    monkeypatch.setattr(catalogs, "source_files", lambda: [*files(), module])
    monkeypatch.setattr(
        catalogs, "module_name", lambda p: "cogs.zz_catalog_probe" if p == module else name_of(p)
    )
    assert render(extract("table"), template=True) != template_path("table").read_text()
    assert any("table.pot: out of date" in p for p in check())


def test_fields_and_plurals_through_the_catalog() -> None:
    assert fields("{n} cards for {name}") == {"n", "name"}
    T = Texts("cogs.table.example")
    with speaking("en"):
        assert T.ngettext("{n} card", "{n} cards", 1) == "1 card"
        assert T.ngettext("{n} card", "{n} cards", 3) == "3 cards"
        assert T.gettext("Hello {name}", name="{n}") == "Hello {n}"  # a value is never a template
        assert T.pgettext("bid", "Pass") == "Pass"


def test_update_leaves_a_new_message_untranslated_in_every_other_language(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``update`` writes a message new to the code into every language's catalog: the source's
    (English) says it as written, every other language's is empty, to be translated. Seen
    failing before each language got its own copy of the template: Babel's Catalog.update adopts
    the template's Message objects, so the English written into them showed up in the Spanish,
    German, Brazilian and Polish catalogs as a translation."""
    from babel.messages.pofile import read_po

    import cogs.texts
    from cogs.texts import catalogs

    monkeypatch.setattr(cogs.texts, "LOCALES", tmp_path)
    monkeypatch.setattr(catalogs, "LOCALES", tmp_path)
    catalogs.update()
    for lang in LANGUAGES:
        with (tmp_path / lang / "LC_MESSAGES" / "table.po").open("rb") as po:
            catalog = read_po(po, locale=lang, domain="table")
        strings = [m.string for m in catalog if m.id and not isinstance(m.id, tuple | list)]
        assert strings, lang
        if lang == "en":
            assert all(strings), "the source's catalog says every text as written"
        else:
            assert not any(strings), f"{lang}: {[s for s in strings if s][:3]}"


def test_a_new_text_is_untranslated_in_every_language_but_the_source() -> None:
    """Seen failing when every language shared the template's new messages: the source language's
    English was then every other language's "translation", and the check passed it."""
    template = extract("table")
    template.add("A text no catalog has yet", None)
    catalogs = updated_catalogs("table", template)

    def string(catalog: Catalog) -> object:
        message = catalog.get("A text no catalog has yet")
        assert message is not None
        return message.string

    assert string(catalogs["en"]) == "A text no catalog has yet"
    for lang in LANGUAGES:
        if lang != "en":
            assert not string(catalogs[lang]), lang
    assert not string(template)  # the template itself is untouched


def test_a_caught_errors_own_text_shown_is_found() -> None:
    """An engine's English reached people as ``Refusal(str(error))`` (table options, before they
    became data); a caught Refusal is worded already, and a choice's value is never shown."""
    source = """
async def open_table(interaction, game, rules):
    try:
        game.parse_options(rules)
    except ValueError as error:
        raise Refusal(str(error)) from error
    except (KeyError, TypeError) as problem:
        embed = discord.Embed(title=f"Broken: {problem}")
    except Refusal as refusal:
        await interaction.response.send_message(str(refusal))
    choice = Choice(name=locale_str("relaxed"), value="relaxed")
"""
    found = {f.text for f in scan_source(source, "cogs/example.py")}
    assert found == {
        "the text of a caught ValueError (error)",
        "the text of a caught KeyError/TypeError (problem)",
        "Broken: {…}",  # and, as ever, the unmarked words around it
    }
