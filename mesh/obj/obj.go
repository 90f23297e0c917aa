package obj
