"""The German text engine: unwrapping, abbreviations, enumerations, numbers and exact offsets."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stores.kb.layout import chunk_text
from stores.text import (
    list_depth,
    list_parents,
    pack_sentences,
    row_statement,
    sentence_texts,
    split_sentences,
    table_caption,
    tables,
    unwrap,
)

WRAPPED_STATUTE = """(1) Benachteiligungen aus einem in § 1 genannten Grund sind nach
Maßgabe dieses Gesetzes unzulässig in Bezug auf:

1.  die Bedingungen für den Zugang zu unselbstständiger und
    selbstständiger Erwerbstätigkeit,

2.  die sozialen Vergünstigungen.

(2) Für Leistungen nach dem Sozialgesetzbuch gelten § 33c des Ersten
Buches Sozialgesetzbuch und § 19a des Vierten Buches Sozialgesetzbuch.
Für die betriebliche Altersvorsorge gilt das Betriebsrentengesetz."""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Nach Art. 5 Abs. 1 S. 2 gilt das. Neu ist es nicht.",
            ["Nach Art. 5 Abs. 1 S. 2 gilt das.", "Neu ist es nicht."],
        ),
        ("Das gilt i. V. m. § 14 Abs. 3. Mehr nicht.", ["Das gilt i. V. m. § 14 Abs. 3.", "Mehr nicht."]),
        (
            "Es gelten die §§ 9 bis 11, ggf. bzw. z. B. auch Nr. 2. Sonst nichts.",
            [
                "Es gelten die §§ 9 bis 11, ggf. bzw. z. B. auch Nr. 2.",
                "Sonst nichts.",
            ],
        ),
        (
            "Gem. § 626 Abs. 1 BGB kann gekündigt werden. Die Frist läuft.",
            [
                "Gem. § 626 Abs. 1 BGB kann gekündigt werden.",
                "Die Frist läuft.",
            ],
        ),
        (
            "Sie beträgt 1.500,50 Euro bzw. 28,5 %. Ab dem 1. Januar 2026 gilt mehr.",
            [
                "Sie beträgt 1.500,50 Euro bzw. 28,5 %.",
                "Ab dem 1. Januar 2026 gilt mehr.",
            ],
        ),
        (
            "Es stieg auf 46,1 Mio. Das meldete das Amt. Es kostet 5 Mio. Euro.",
            [
                "Es stieg auf 46,1 Mio.",
                "Das meldete das Amt.",
                "Es kostet 5 Mio. Euro.",
            ],
        ),
        ("Tempo 50 km/h. Außerorts mehr.", ["Tempo 50 km/h.", "Außerorts mehr."]),
        # a number with its thousands grouped is a cardinal, unless a determiner makes it an ordinal
        (
            "Die Einwohnerzahl lag bei 2.000. Überreste der Mauer sind sichtbar.",
            ["Die Einwohnerzahl lag bei 2.000.", "Überreste der Mauer sind sichtbar."],
        ),
        ("Pro Person sind es 500 000. Kunden zahlen mehr.", ["Pro Person sind es 500 000.", "Kunden zahlen mehr."]),
        ("Der 1.000. Besucher erhält einen Preis.", ["Der 1.000. Besucher erhält einen Preis."]),
        ("Zum 1.000. Mal fand es statt.", ["Zum 1.000. Mal fand es statt."]),
        ("Laptop, Headset usw. Die Geräte stellt die Firma.", ["Laptop, Headset usw.", "Die Geräte stellt die Firma."]),
        # an asker's number before their question: a verb or a question word opens the next sentence
        ("Ich bin 60. Kann ich Altersteilzeit machen?", ["Ich bin 60.", "Kann ich Altersteilzeit machen?"]),
        ("Mein Sohn ist 13. Welche Regel gilt?", ["Mein Sohn ist 13.", "Welche Regel gilt?"]),
        (
            "Sie steht im Ärzteblatt, Jg. 111, S. 1583. Sie gilt.",
            ["Sie steht im Ärzteblatt, Jg. 111, S. 1583.", "Sie gilt."],
        ),
    ],
)
def test_abbreviations_and_numbers(text: str, expected: list[str]) -> None:
    assert sentence_texts(text) == expected


def test_enumerations_and_list_items_are_their_own_segments() -> None:
    text = (
        "Ordnungswidrig handelt, wer\n1. keine Meldung macht,\n2. lügt oder\n3. schweigt.\n(2) Die Buße beträgt 5 Euro."
    )
    sentences = split_sentences(text)
    assert [s.clean for s in sentences] == [
        "Ordnungswidrig handelt, wer",
        "1. keine Meldung macht,",
        "2. lügt oder",
        "3. schweigt.",
        "(2) Die Buße beträgt 5 Euro.",
    ]
    assert [s.is_item for s in sentences] == [False, True, True, True, True]
    assert sentences[4].body == "Die Buße beträgt 5 Euro."
    assert sentence_texts("Liste:\n- eins\n- zwei\n* drei\na) vier") == [
        "Liste:",
        "- eins",
        "- zwei",
        "* drei",
        "a) vier",
    ]


def test_a_date_at_a_line_start_is_wrapped_text_not_an_item() -> None:
    text = "Das Gesetz wurde zuletzt durch Artikel 3 des Gesetzes vom\n9. Mai 2023 geändert und gilt fort."
    assert sentence_texts(text) == [
        "Das Gesetz wurde zuletzt durch Artikel 3 des Gesetzes vom 9. Mai 2023 geändert und gilt fort."
    ]


def test_a_markdown_escaped_date_stays_in_its_sentence_and_reads_without_the_escape() -> None:
    # statutes converted to Markdown escape an ordinal at a line start so that it opens no list
    text = (
        "Es gilt die Richtlinie (EU) 2016/680 des Rates vom\n27\\. April 2016 zum Schutz natürlicher Personen "
        "(ABl. L 119 vom 4.5.2016, S. 89) entsprechend. Andere Staaten gelten als Drittstaaten."
    )
    assert sentence_texts(text) == [
        "Es gilt die Richtlinie (EU) 2016/680 des Rates vom 27. April 2016 zum Schutz natürlicher Personen "
        "(ABl. L 119 vom 4.5.2016, S. 89) entsprechend.",
        "Andere Staaten gelten als Drittstaaten.",
    ]


def test_hard_wrapped_statute_is_unwrapped_into_whole_sentences() -> None:
    assert [s.body for s in split_sentences(WRAPPED_STATUTE)] == [
        "Benachteiligungen aus einem in § 1 genannten Grund sind nach Maßgabe dieses Gesetzes unzulässig in Bezug auf:",
        "die Bedingungen für den Zugang zu unselbstständiger und selbstständiger Erwerbstätigkeit,",
        "die sozialen Vergünstigungen.",
        "Für Leistungen nach dem Sozialgesetzbuch gelten § 33c des Ersten Buches Sozialgesetzbuch und § 19a des "
        "Vierten Buches Sozialgesetzbuch.",
        "Für die betriebliche Altersvorsorge gilt das Betriebsrentengesetz.",
    ]
    flowing = unwrap(WRAPPED_STATUTE)
    assert "nach Maßgabe dieses Gesetzes" in flowing and "\n\n1.  die Bedingungen" in flowing
    assert sentence_texts(flowing) == sentence_texts(WRAPPED_STATUTE)


def test_markdown_titles_and_short_lines_end_a_sentence() -> None:
    text = (
        "## § 7 Zuständigkeit\nZuständig ist das Amt.\nUnsere Werte\nWir glauben an Qualität.\n"
        "Video-\nPlattformen und Audio-\nund Textdienste."
    )
    assert sentence_texts(text) == [
        "## § 7 Zuständigkeit",
        "Zuständig ist das Amt.",
        "Unsere Werte",
        "Wir glauben an Qualität.",
        "Video-Plattformen und Audio- und Textdienste.",
    ]


def test_a_short_line_that_an_act_s_citation_goes_on_is_no_title() -> None:
    """Statutes break a citation after „Verordnung" or „(EG)" (links leave space runs behind the number): the short
    line before „(EU) 2017/745", „Nr. 1107/2009" or „2001/83/EG" is part of the sentence, not a title."""
    text = (
        "Dieses Gesetz gilt nicht für Produkte nach der Verordnung\n"
        "    (EU) 2017/745                    des Europäischen Parlaments, der\n    Richtlinie\n"
        "    2001/83/EG                   und der Verordnung\n    (EG)\n"
        "    Nr. 1107/2009                    des Rates.\nZuständig ist das Amt."
    )
    assert [s.clean for s in split_sentences(text)] == [
        "Dieses Gesetz gilt nicht für Produkte nach der Verordnung (EU) 2017/745 des Europäischen Parlaments, der "
        "Richtlinie 2001/83/EG und der Verordnung (EG) Nr. 1107/2009 des Rates.",
        "Zuständig ist das Amt.",
    ]


def test_chunks_are_unwrapped_whole_sentences() -> None:
    pieces = chunk_text(WRAPPED_STATUTE, 200)
    chunks = [c.text for c in pieces]
    assert all(len(c.text) - c.repeated <= 200 for c in pieces)
    assert chunks[0].startswith("(1) Benachteiligungen") and "\n" not in chunks[0].split(":")[0]
    assert all(sentence_texts(c)[-1][-1] in ".,:" for c in chunks)


def test_a_chunk_that_opens_inside_a_list_repeats_the_list_s_lead_in() -> None:
    lead_in, items, closing = chunk_text(WRAPPED_STATUTE, 200)[:3]
    assert lead_in.text.endswith("in Bezug auf:") and lead_in.repeated == 0
    # the items read as a sentence with their lead-in; the repeated part is marked, so a hit can leave it out
    assert items.text[: items.repeated] == f"{lead_in.text}\n\n"
    assert items.text[items.repeated :].startswith("1.  die Bedingungen")
    assert closing.repeated == 0  # a paragraph, no list item


NESTED_STATUTE = (
    "Im Sinne dieses Gesetzes bedeutet\n\n"
    "15. Hersteller jede Person, die ein Produkt herstellt; als Hersteller gilt auch jeder, der\n\n"
    "    a)  seinen Namen, seine Handelsmarke oder ein anderes Kennzeichen an einem Produkt anbringt und\n"
    "        sich dadurch als Hersteller ausgibt oder\n\n"
    "    b)  ein Produkt wiederaufarbeitet, wenn er\n\n"
    "        aa) es auf dem Markt bereitstellt oder\n\n"
    "        bbb) es ausstellt,\n\n"
    "15a. Händler jede Person, die ein Produkt bereitstellt."
)


def test_nested_list_items_know_their_kind_and_the_items_they_are_nested_in() -> None:
    sentences = split_sentences(NESTED_STATUTE)
    assert [s.list_kind for s in sentences] == [None, "1", "a", "a", "aa", "aaa", "1"]
    assert sentences[-1].body == "Händler jede Person, die ein Produkt bereitstellt."  # „15a." is no sentence end
    assert [[p.index for p in list_parents(NESTED_STATUTE, sentences, s.index)] for s in sentences] == [
        [],
        [],
        [1],
        [1],
        [1, 3],
        [1, 3, 4],
        [],
    ]


def test_an_item_stands_in_the_list_of_its_kind_or_nests_in_the_item_before() -> None:
    assert list_depth(["1", "a", "aa"], "a", nests=False) == 1  # „b)" after „aa)": back to the letters
    assert list_depth(["1"], "a", nests=True) == 1  # „a)" after „15. … gilt auch jeder, der"
    assert list_depth(["1"], "a", nests=False) is None  # after a whole item: a list of its own
    assert list_depth([], "1", nests=True) is None


def test_a_chunk_that_opens_inside_a_nested_list_repeats_the_item_it_is_nested_in() -> None:
    """„b)" read with only „Im Sinne dieses Gesetzes bedeutet" would say „bedeutet ein Produkt wiederaufarbeitet"."""
    first, second = chunk_text(NESTED_STATUTE, 300)[:2]
    assert "a)  seinen Namen" in first.text and second.text[second.repeated :].startswith("b)  ein Produkt")
    assert second.text[: second.repeated] == (
        "Im Sinne dieses Gesetzes bedeutet\n\n"
        "15. Hersteller jede Person, die ein Produkt herstellt; als Hersteller gilt auch jeder, der\n\n"
    )


NOTICE_TABLE = (
    "Es gelten folgende Fristen:\n\n"
    "| Betriebszugehörigkeit | **Kündigungsfrist** |\n"
    "| :--- | ---: |\n"
    "| bis 2 Jahre | 1 Monat. |\n"
    "| ab 2 Jahren | 2 Monate \\| zum Quartal |\n"
    "| ab 5 Jahren | |\n\n"
    "Die Kündigung bedarf der Schriftform."
)


def test_a_markdown_table_has_its_headings_and_rows_and_a_row_is_one_sentence() -> None:
    (table,) = tables(NOTICE_TABLE)
    assert table.headings == ("Betriebszugehörigkeit", "Kündigungsfrist")  # emphasis is no text
    assert [row.cells for row in table.rows] == [
        ("bis 2 Jahre", "1 Monat."),
        ("ab 2 Jahren", "2 Monate | zum Quartal"),  # an escaped bar stays in its cell
        ("ab 5 Jahren", ""),
    ]
    assert [row_statement(table.headings, row.cells) for row in table.rows] == [
        "Betriebszugehörigkeit: bis 2 Jahre; Kündigungsfrist: 1 Monat.",
        "Betriebszugehörigkeit: ab 2 Jahren; Kündigungsfrist: 2 Monate | zum Quartal",
        "Betriebszugehörigkeit: ab 5 Jahren",  # an empty cell says nothing
    ]
    sentences = split_sentences(NOTICE_TABLE)
    assert [s.clean for s in sentences][2:4] == [
        "| bis 2 Jahre | 1 Monat. |",
        "| ab 2 Jahren | 2 Monate \\| zum Quartal |",
    ]
    caption = table_caption(NOTICE_TABLE, sentences, table)
    assert caption is not None and caption.clean == "Es gelten folgende Fristen:"
    # bars without a delimiter row below the first are no table; a heading above a table is no caption
    assert tables("| a | b |\n| c | d |") == []
    headed = "## Fristen\n\n| Frist | Tage |\n|---|---|\n| kurz | 3 |"
    assert table_caption(headed, split_sentences(headed), tables(headed)[0]) is None


def test_a_markdown_image_s_exclamation_mark_ends_no_sentence() -> None:
    text = "Der Ablauf ![Ablauf](ablauf.png) steht im Portal. Fertig!"
    assert sentence_texts(text) == ["Der Ablauf ![Ablauf](ablauf.png) steht im Portal.", "Fertig!"]


def test_a_chunk_that_opens_inside_a_table_repeats_its_caption_and_heading_rows() -> None:
    """Rows without their headings say „| ab 5 Jahren | 3 Monate |", which no reader (nor the answer) can use."""
    rows = "".join(f"| ab {years} Jahren | {years} Monate |\n" for years in range(1, 13))
    text = f"Es gelten folgende Fristen:\n\n| Betriebszugehörigkeit | Kündigungsfrist |\n|---|---|\n{rows}"
    chunks = chunk_text(text, 150)
    assert len(chunks) > 2 and all(tables(c.text) for c in chunks[1:])
    for chunk in chunks[1:]:
        assert chunk.text[: chunk.repeated].startswith("Es gelten folgende Fristen:\n\n| Betriebszugehörigkeit |")
        assert chunk.text[chunk.repeated :].startswith("| ab ")
    assert sum(len(tables(c.text)[0].rows) for c in chunks[1:]) + len(tables(chunks[0].text)[0].rows) == 12


_PIECES = st.sampled_from(
    [
        "Abs.",
        "Nr.",
        "1.",
        "(2)",
        "z. B.",
        "§§",
        "ggf.",
        "28,5",
        "1.500",
        "Euro.",
        "Die",
        "Regel",
        "gilt",
        "?",
        "!",
        "- ",
        "\n",
        "\n\n",
        "  ",
        "i. V. m.",
        "km/h.",
        "Mio.",
        "usw.",
        "„Zitat.“",
        "a)",
        "\t",
    ]
)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.tuples(_PIECES, st.sampled_from([" ", "", "\n", " \n  "])), max_size=40))
def test_offsets_slice_the_original_text(parts: list[tuple[str, str]]) -> None:
    text = "".join(piece + gap for piece, gap in parts)
    sentences = split_sentences(text)
    assert all(text[s.start : s.end] == s.text for s in sentences)
    assert all(a.end <= b.start for a, b in zip(sentences, sentences[1:], strict=False))
    assert [s.index for s in sentences] == list(range(len(sentences)))
    inside = {i for s in sentences for i in range(s.start, s.end)}
    assert all(i in inside for i, ch in enumerate(text) if ch.isalnum())  # only punctuation may fall between
    packed = pack_sentences(text, 30)
    assert all(0 < end - start <= 30 for start, end in packed)
    assert all(a[1] <= b[0] for a, b in zip(packed, packed[1:], strict=False))
    in_pack = {i for start, end in packed for i in range(start, end)}
    assert inside <= in_pack
