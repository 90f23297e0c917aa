package off
