"""The commands: the command line, the server's start, the terminal games, the remote client and
the load tool. Nothing below imports them."""
