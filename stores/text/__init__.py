"""German text engine: unwrapping of hard-wrapped text and sentence boundaries with exact offsets."""

from stores.text.sentences import (
    TEXT_ENGINE_VERSION,
    Sentence,
    count_words,
    goes_on_item,
    pack_sentences,
    sentence_at,
    sentence_texts,
    split_sentences,
    unwrap,
)

__all__ = [
    "TEXT_ENGINE_VERSION",
    "Sentence",
    "count_words",
    "goes_on_item",
    "pack_sentences",
    "sentence_at",
    "sentence_texts",
    "split_sentences",
    "unwrap",
]
