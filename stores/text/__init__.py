"""German text engine: unwrapping of hard-wrapped text and sentence boundaries with exact offsets."""

from stores.text.sentences import (
    TEXT_ENGINE_VERSION,
    Sentence,
    closes_sentence,
    count_words,
    goes_on_item,
    list_depth,
    list_parents,
    pack_sentences,
    sentence_at,
    sentence_texts,
    split_sentences,
    table_caption,
    unwrap,
)
from stores.text.tables import Table, TableRow, row_statement, tables

__all__ = [
    "TEXT_ENGINE_VERSION",
    "Sentence",
    "closes_sentence",
    "count_words",
    "goes_on_item",
    "list_depth",
    "list_parents",
    "pack_sentences",
    "sentence_at",
    "sentence_texts",
    "split_sentences",
    "table_caption",
    "tables",
    "Table",
    "TableRow",
    "row_statement",
    "unwrap",
]
