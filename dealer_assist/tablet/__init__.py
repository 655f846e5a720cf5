"""What the table's tablet runs, in the browser (Pyodide) as on the server: pure Python over the
rules engine and the standard library -- the screen built from a round's events (:mod:`.screen`),
its words (:mod:`.words`) and the offline round (:mod:`.offline`)."""
