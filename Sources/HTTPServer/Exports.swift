// The server's logger lives in its own module so that code below the routes can log without HTTP types.
@_exported import Logging
