// An empty file: an empty module.
