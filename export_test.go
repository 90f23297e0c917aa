package collide

// IterStats returns the counts of the last query a Pairs iterator of q ran.
func (q *Query) IterStats() Stats { return q.iterStats }
