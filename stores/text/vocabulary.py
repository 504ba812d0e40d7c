"""Word lists behind German sentence boundaries (own selection, lower case, without the period)."""

from __future__ import annotations

from typing import Final

# A period after these never ends a sentence: legal, business, date and general abbreviations.
ABBREVIATIONS: Final = frozenset(
    """abl abs abschn allg anh anl anm art aufl bd bgbl bsp bspw buchst bzgl bzw ca co dr ebd einschl evtl gem
    ggf hr fr frau hrsg inkl insb jg jh kap lit lt max mind nr prof rn rz sog str tel
    verf vgl vs zb zit ziff zzgl jan feb mär apr jun jul aug sep sept okt nov dez mo di mi do sa so
    nachf st
    """.split()
)
# These end a sentence as often as not (lists, units): they do when a typical sentence opener follows
# ("usw. Die …", "46,1 Mio. Das …"), and do not before anything else ("5 Mio. Euro").
AMBIGUOUS_ABBREVIATIONS: Final = frozenset({"usw", "etc", "ff", "mio", "mrd", "tsd", "std", "min", "km", "kg"})
# Before these a number is a cardinal reference ("die Nr. 1.", "nach Abs. 2."), not an ordinal ("am 3. Mai").
CARDINAL_MARKERS: Final = frozenset(
    """nr nummer no platz rang top abs absatz art artikel s seite satz kap kapitel ziff ziffer buchst
    § anlage anhang halbsatz""".split()
)
# Words before a number that read its period as an ordinal's („der 1.000. Besucher", „zum 100. Mal").
ORDINAL_DETERMINERS: Final = frozenset(
    """der die das den dem des am im zum zur vom beim ihr ihre ihrem ihren ihrer sein seine seinem seinen seiner
    jeder jede jedes jeden jedem""".split()
)
# Capitalised function words that open sentences but are no nouns, so they decide ambiguous periods.
SENTENCE_STARTERS: Final = frozenset(
    """Der Die Das Den Dem Des Ein Eine Einer Eines Einem Einen Er Sie Es Wir Ich Ihr Man Dies Diese Dieser
    Dieses Damit Dabei Dafür Daher Danach Dann Darüber Dazu Doch Auch Aber Also Außerdem Bei Für Im In Mit
    Nach Seit Zudem Wer Wenn Was Wie Soweit Sofern Hierzu Hierfür Jeder Jede Jedes Kein Keine Nur Ab Bis
    Wann Wo Warum Wieso Weshalb Welche Welcher Welches Kann Darf Muss Soll Ist Bin Sind Hat Habe Gibt Gilt Wird
    Bekomme Stimmt""".split()
)
