"""The one shell reader: tokenize (the real tokenizer), words (commands, wrappers, written
paths) and commands (the command table). Facts, memory and permissions all read commands here."""
