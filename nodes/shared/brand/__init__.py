"""The brand-rule engine (K6 boundaries, term and claim matching) and the German text pieces it needs.

Shared because more than one graph uses it: the scorecard scores with it, the answer graph holds a bot's
answers to a brand's boundaries with it.
"""
