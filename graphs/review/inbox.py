"""The review inbox: bucket items from the database and pending interrupts from the served API, decided the
same way and recorded with reviewer, time, before and after. Database work runs in a worker thread, so the
inbox never blocks the server's event loop."""

from __future__ import annotations

import asyncio

from graphs.review.bucket import BucketReviews
from graphs.review.items import DecisionOutcome, ItemNotFound, ReviewItem
from graphs.review.served import ServedReviews
from nodes.shared.review import ReviewerDecision, human_response
from stores.sql.engine import Database
from stores.sql.reviews import DecisionRecord, GraphName, ReviewStore


class ReviewInbox:
    def __init__(self, database: Database, served: ServedReviews | None = None) -> None:
        self._bucket = BucketReviews(database)
        self._served = served
        self._reviews = ReviewStore(database)

    async def items(self, *, graph: GraphName | None = None, bot_id: str | None = None) -> list[ReviewItem]:
        items = await asyncio.to_thread(self._bucket.items, graph=graph, bot_id=bot_id)
        if self._served is not None:
            items += await self._served.items(graph=graph, bot_id=bot_id)
        return items

    async def item(self, item_id: str) -> ReviewItem:
        if item_id.startswith("live:"):
            return (await self._live(item_id))[0]
        return await asyncio.to_thread(self._bucket.item, item_id)

    async def decide(self, item_id: str, decision: ReviewerDecision, reviewer: str) -> DecisionOutcome:
        """Carry out one decision; ``reviewer`` is who decided (today ``--reviewer``, later the signed-in user)."""
        if not item_id.startswith("live:"):
            return await asyncio.to_thread(self._bucket.decide, item_id, decision, reviewer)
        assert self._served is not None  # _live raised otherwise
        item, interrupt_id = await self._live(item_id)
        decision = decision.model_copy(update={"reviewer": reviewer})
        response = human_response(decision, item.request["action_request"]["action"])
        after, problems = await self._served.resume(item, response)
        if problems:
            return DecisionOutcome(item_id=item_id, carried_out=False, problems=problems)
        record = DecisionRecord(
            item_id=f"{item_id}:{interrupt_id}",
            graph=item.graph,
            origin="interrupt",
            action=decision.action,
            reviewer=reviewer,
            note=decision.note,
            before=item.args,
            after=after | ({"changes": decision.changes} if decision.action == "edit" else {}),
        )
        await asyncio.to_thread(self._reviews.record, record)
        return DecisionOutcome(item_id=item_id, carried_out=True, after=after)

    async def _live(self, item_id: str) -> tuple[ReviewItem, str]:
        if self._served is None:
            raise ItemNotFound(item_id)
        return await self._served.item(item_id)
