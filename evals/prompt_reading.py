"""What a scripted model can read from the prompt the answer graph sends: the blocks (or notes) and their IDs."""

from __future__ import annotations

from dataclasses import dataclass

from stores.text import sentence_texts


@dataclass(frozen=True)
class PromptBlock:
    """One context block (``Block N — [id] …``) or survey note (``[id] … · Stand …``) with the text below it."""

    entry_id: str
    text: str

    @property
    def first_statement(self) -> str:
        """The first sentence of the first line, without list marker, final stop or citation."""
        first = self.text.splitlines()[0].lstrip("- ").split(". ")[0].rstrip(". ")
        return first.split(" [")[0]

    @property
    def sentences(self) -> list[str]:
        return [s.lstrip("-•* ").rstrip(" .") for s in sentence_texts(self.text) if len(s) > 3]


def prompt_blocks(prompt: str) -> list[PromptBlock]:
    """Blocks in prompt order; the text of a block runs to the next header, separator or the question
    (its quote fence lines ``⟦…⟧`` are not part of it)."""
    blocks: list[tuple[str, list[str]]] = []
    for line in prompt.splitlines():
        if line.startswith("Frage: "):
            break
        if (line.startswith("Block ") and " — [" in line) or (line.startswith("[") and "·" in line):
            blocks.append((line.split("[", 1)[1].split("]", 1)[0], []))
        elif blocks and line.strip() and line.strip() != "---" and not line.startswith("⟦"):
            blocks[-1][1].append(line)
    return [PromptBlock(entry_id, "\n".join(lines)) for entry_id, lines in blocks if lines]
