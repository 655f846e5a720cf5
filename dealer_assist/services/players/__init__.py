"""Rated players: their cards and visits (:mod:`.cards`) and their ratings
(:mod:`.ratings`, computed from the stored rounds read by :mod:`.played`)."""
