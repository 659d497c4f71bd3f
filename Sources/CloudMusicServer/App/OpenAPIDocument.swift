/// The OpenAPI 3 description of every route. Add each new route here (a test fails when one is missing).
public enum OpenAPIDocument {
    public static let json = #"""
        {
          "openapi": "3.0.3",
          "info": {
            "title": "CloudMusic API",
            "version": "0.1.0",
            "description": "The v1 REST API of a CloudMusic server. Successes are {\"status\":0,\"data\":...}; lists are pages {total,pages,size,page,next,data}; failures carry a non-2xx HTTP status and {\"status\":<code>,\"message\":<sentence>}. Media paths (uri, icon) are relative to the server root."
          },
          "paths": {
            "/health": {
              "get": {
                "summary": "Liveness check",
                "responses": {
                  "200": {
                    "description": "The server is up",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {
                              "properties": {"data": {"type": "object", "properties": {"status": {"type": "string", "enum": ["ok"]}}}}
                            }
                          ]
                        }
                      }
                    }
                  }
                }
              }
            },
            "/metrics": {
              "get": {
                "summary": "Metrics in the Prometheus text format",
                "responses": {
                  "200": {
                    "description": "Counters, a latency histogram and gauges",
                    "content": {"text/plain": {"schema": {"type": "string"}}}
                  }
                }
              }
            },
            "/v1/server": {
              "get": {
                "summary": "What this server is",
                "responses": {
                  "200": {
                    "description": "Name and versions",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"$ref": "#/components/schemas/ServerInfo"}}}
                          ]
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/openapi.json": {
              "get": {
                "summary": "This document",
                "responses": {
                  "200": {"description": "OpenAPI 3 JSON", "content": {"application/json": {"schema": {"type": "object"}}}}
                }
              }
            },
            "/v1/songs": {
              "get": {
                "summary": "Songs, paged and sorted",
                "responses": {
                  "200": {
                    "description": "A page of songs",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {"$ref": "#/components/schemas/PageInfo"},
                                    {"properties": {"data": {"type": "array", "items": {"$ref": "#/components/schemas/Song"}}}}
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                },
                "parameters": [
                  {"$ref": "#/components/parameters/Page"},
                  {"$ref": "#/components/parameters/Size"},
                  {"$ref": "#/components/parameters/Sort"},
                  {
                    "name": "artist",
                    "in": "query",
                    "required": false,
                    "description": "Only this artist's songs",
                    "schema": {"type": "string"}
                  },
                  {
                    "name": "album",
                    "in": "query",
                    "required": false,
                    "description": "Only this album's songs, in disc and track order",
                    "schema": {"type": "string"}
                  },
                  {
                    "name": "genre",
                    "in": "query",
                    "required": false,
                    "description": "Only this genre's songs",
                    "schema": {"type": "string"}
                  }
                ]
              }
            },
            "/v1/songs/{id}": {
              "get": {
                "summary": "A song, with its raw lyric text",
                "responses": {
                  "200": {
                    "description": "The song",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"$ref": "#/components/schemas/Song"}}}
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                },
                "parameters": [{"$ref": "#/components/parameters/Id"}]
              }
            },
            "/v1/songs/{id}/lyric": {
              "get": {
                "summary": "A song's lyric: raw text and parsed lines with word timings",
                "responses": {
                  "200": {
                    "description": "The lyric",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"$ref": "#/components/schemas/Lyric"}}}
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                },
                "parameters": [{"$ref": "#/components/parameters/Id"}]
              }
            },
            "/v1/songs/{id}/stream": {
              "get": {
                "summary": "The song's audio: the original file (Range, ETag, 304) or a live transcode",
                "responses": {
                  "200": {
                    "description": "Audio bytes (chunked when transcoding)",
                    "content": {"audio/*": {"schema": {"type": "string", "format": "binary"}}}
                  },
                  "206": {"description": "The requested byte range of the original file"},
                  "304": {"description": "Not modified"},
                  "416": {"description": "The range is outside the file"},
                  "429": {"$ref": "#/components/responses/TooMany"},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                },
                "parameters": [
                  {"$ref": "#/components/parameters/Id"},
                  {
                    "name": "format",
                    "in": "query",
                    "required": false,
                    "description": "Transcode to this format (raw = the original)",
                    "schema": {"type": "string", "enum": ["raw", "mp3", "opus", "aac"]}
                  },
                  {
                    "name": "maxBitRate",
                    "in": "query",
                    "required": false,
                    "description": "Transcode at most at this many kbit/s (32-320)",
                    "schema": {"type": "integer"}
                  },
                  {
                    "name": "timeOffset",
                    "in": "query",
                    "required": false,
                    "description": "Start this many seconds into the song (transcodes)",
                    "schema": {"type": "number", "minimum": 0}
                  }
                ]
              }
            },
            "/v1/songs/{id}/cover": {
              "get": {
                "summary": "The song's cover: its embedded picture, else its album's",
                "responses": {
                  "200": {
                    "description": "JPEG image",
                    "content": {"image/jpeg": {"schema": {"type": "string", "format": "binary"}}}
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                },
                "parameters": [
                  {"$ref": "#/components/parameters/Id"},
                  {
                    "name": "size",
                    "in": "query",
                    "required": false,
                    "description": "Longest side in pixels; snaps up to 64, 128, 256, 512 or 1024; 0 or absent for the original",
                    "schema": {"type": "integer", "minimum": 0}
                  }
                ]
              }
            },
            "/v1/albums": {
              "get": {
                "summary": "Albums, paged and sorted",
                "responses": {
                  "200": {
                    "description": "A page of albums",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {"$ref": "#/components/schemas/PageInfo"},
                                    {"properties": {"data": {"type": "array", "items": {"$ref": "#/components/schemas/Album"}}}}
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                },
                "parameters": [
                  {"$ref": "#/components/parameters/Page"},
                  {"$ref": "#/components/parameters/Size"},
                  {"$ref": "#/components/parameters/Sort"},
                  {
                    "name": "artist",
                    "in": "query",
                    "required": false,
                    "description": "Only this album artist's albums",
                    "schema": {"type": "string"}
                  }
                ]
              }
            },
            "/v1/albums/{id}": {
              "get": {
                "summary": "An album with its songs in disc and track order",
                "responses": {
                  "200": {
                    "description": "The album",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"$ref": "#/components/schemas/Album"}}}
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                },
                "parameters": [{"$ref": "#/components/parameters/Id"}]
              }
            },
            "/v1/albums/{id}/cover": {
              "get": {
                "summary": "The album's cover: the folder image, else an embedded picture",
                "responses": {
                  "200": {"description": "Image", "content": {"image/*": {"schema": {"type": "string", "format": "binary"}}}},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                },
                "parameters": [
                  {"$ref": "#/components/parameters/Id"},
                  {
                    "name": "size",
                    "in": "query",
                    "required": false,
                    "description": "Longest side in pixels; snaps up to 64, 128, 256, 512 or 1024",
                    "schema": {"type": "integer", "minimum": 0}
                  }
                ]
              }
            },
            "/v1/artists": {
              "get": {
                "summary": "Artists, paged and sorted",
                "responses": {
                  "200": {
                    "description": "A page of artists",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {"$ref": "#/components/schemas/PageInfo"},
                                    {"properties": {"data": {"type": "array", "items": {"$ref": "#/components/schemas/Artist"}}}}
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                },
                "parameters": [
                  {"$ref": "#/components/parameters/Page"},
                  {"$ref": "#/components/parameters/Size"},
                  {"$ref": "#/components/parameters/Sort"}
                ]
              }
            },
            "/v1/artists/{id}": {
              "get": {
                "summary": "An artist with albums and most played songs",
                "responses": {
                  "200": {
                    "description": "The artist",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"$ref": "#/components/schemas/Artist"}}}
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                },
                "parameters": [{"$ref": "#/components/parameters/Id"}]
              }
            },
            "/v1/genres": {
              "get": {
                "summary": "Genres by number of songs",
                "responses": {
                  "200": {
                    "description": "A page of genres",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {"$ref": "#/components/schemas/PageInfo"},
                                    {"properties": {"data": {"type": "array", "items": {"$ref": "#/components/schemas/Genre"}}}}
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                },
                "parameters": [{"$ref": "#/components/parameters/Page"}, {"$ref": "#/components/parameters/Size"}]
              }
            },
            "/v1/searches": {
              "get": {
                "summary": "Search songs, albums and artists: CJK text by any substring, Latin words by prefix",
                "responses": {
                  "200": {
                    "description": "Matches, best first",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"$ref": "#/components/schemas/SearchResults"}}}
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                },
                "parameters": [
                  {
                    "name": "q",
                    "in": "query",
                    "required": false,
                    "description": "What to search for (1-100 characters)",
                    "schema": {"type": "string"}
                  },
                  {
                    "name": "size",
                    "in": "query",
                    "required": false,
                    "description": "Most results of each kind",
                    "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}
                  }
                ]
              }
            },
            "/v1/searches/suggests": {
              "get": {
                "summary": "Completions while typing",
                "responses": {
                  "200": {
                    "description": "Suggestions, best first",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"type": "array", "items": {"$ref": "#/components/schemas/Suggestion"}}}}
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                },
                "parameters": [
                  {
                    "name": "q",
                    "in": "query",
                    "required": false,
                    "description": "What has been typed so far",
                    "schema": {"type": "string"}
                  },
                  {
                    "name": "size",
                    "in": "query",
                    "required": false,
                    "description": "Most suggestions",
                    "schema": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10}
                  }
                ]
              }
            },
            "/v1/library/scan": {
              "get": {
                "summary": "The library scan: whether one runs, its progress and the last report with skipped files",
                "responses": {"200": {"$ref": "#/components/responses/V1LibraryScanResponse"}}
              },
              "post": {
                "summary": "Start a library scan in the background (administrators; before any exists, clients on the server's machine)",
                "security": [{"session": []}, {}],
                "responses": {
                  "202": {"$ref": "#/components/responses/V1LibraryScanResponse"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"}
                }
              }
            },
            "/v1/users": {
              "post": {
                "summary": "Sign up with a phone number or email, a password, a nickname and (unless the server runs with --signup-codes off) a 'register' code sent to that phone or email; the first user becomes an administrator",
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "required": ["password", "nickname"],
                        "properties": {
                          "phone": {
                            "type": "string",
                            "description": "E.164-like: optional + and 7-15 digits (spaces and dashes are dropped). Give phone or email."
                          },
                          "email": {"type": "string", "format": "email", "description": "Give phone or email."},
                          "password": {"type": "string", "minLength": 8, "maxLength": 128},
                          "nickname": {
                            "type": "string",
                            "description": "1-32 characters after trimming, unique ignoring case; CJK and emoji allowed, control characters not"
                          },
                          "code": {"type": "string", "description": "The six digits from POST /v1/codes with purpose 'register'"}
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "The new user (with its private fields)",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"$ref": "#/components/schemas/User"}}}
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "409": {"$ref": "#/components/responses/Conflict"},
                  "429": {"$ref": "#/components/responses/TooMany"}
                }
              }
            },
            "/v1/users/{id}": {
              "get": {
                "summary": "A user's profile: public fields for others; phone, email and role only for the user themselves (administrators use /v1/admin/users)",
                "security": [{"session": []}, {}],
                "parameters": [{"$ref": "#/components/parameters/Id"}],
                "responses": {
                  "200": {
                    "description": "The user",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"$ref": "#/components/schemas/User"}}}
                          ]
                        }
                      }
                    }
                  },
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              },
              "delete": {
                "summary": "Delete an account with everything that is its own (sheets, collections, history, queue, sessions): one's own with the password, or anyone's by an administrator",
                "security": [{"session": []}],
                "parameters": [{"$ref": "#/components/parameters/Id"}],
                "requestBody": {
                  "required": false,
                  "content": {"application/json": {"schema": {"type": "object", "properties": {"password": {"type": "string"}}}}}
                },
                "responses": {
                  "200": {"$ref": "#/components/responses/Done"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              },
              "patch": {
                "summary": "Change one's own profile (absent fields stay; null or empty text clears)",
                "security": [{"session": []}],
                "parameters": [{"$ref": "#/components/parameters/Id"}],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "properties": {
                          "nickname": {"type": "string"},
                          "description": {"type": "string", "nullable": true, "maxLength": 300},
                          "gender": {"type": "integer", "enum": [0, 10, 20]},
                          "birthday": {"type": "string", "format": "date", "nullable": true},
                          "province": {"type": "string", "nullable": true},
                          "city": {"type": "string", "nullable": true},
                          "area": {"type": "string", "nullable": true}
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The changed user",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"$ref": "#/components/schemas/User"}}}
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"$ref": "#/components/responses/NotFound"},
                  "409": {"$ref": "#/components/responses/Conflict"}
                }
              }
            },
            "/v1/users/{id}/password": {
              "put": {
                "summary": "Change one's own password, given the current one; every other device is signed out",
                "security": [{"session": []}],
                "parameters": [{"$ref": "#/components/parameters/Id"}],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "required": ["password", "newPassword"],
                        "properties": {"password": {"type": "string"}, "newPassword": {"type": "string", "minLength": 8, "maxLength": 128}}
                      }
                    }
                  }
                },
                "responses": {
                  "200": {"$ref": "#/components/responses/Done"},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "429": {"$ref": "#/components/responses/TooMany"}
                }
              }
            },
            "/v1/users/{id}/avatar": {
              "get": {
                "summary": "A user's avatar, a 256x256 JPEG",
                "parameters": [{"$ref": "#/components/parameters/Id"}],
                "responses": {
                  "200": {
                    "description": "JPEG",
                    "content": {"image/jpeg": {"schema": {"type": "string", "format": "binary"}}}
                  },
                  "304": {"description": "Not modified"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              },
              "post": {
                "summary": "Upload one's own avatar (JPEG, PNG or WebP, checked by content, at most 10 MB); it is cropped and resized",
                "security": [{"session": []}],
                "parameters": [{"$ref": "#/components/parameters/Id"}],
                "requestBody": {
                  "required": true,
                  "content": {
                    "multipart/form-data": {
                      "schema": {
                        "type": "object",
                        "required": ["file"],
                        "properties": {"file": {"type": "string", "format": "binary"}}
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The user with its new icon",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"$ref": "#/components/schemas/User"}}}
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"$ref": "#/components/responses/NotFound"},
                  "413": {"$ref": "#/components/responses/TooLarge"},
                  "415": {"$ref": "#/components/responses/Unsupported"}
                }
              }
            },
            "/v1/users/reset_password": {
              "post": {
                "summary": "Set a new password with a reset code; every session of the account ends",
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "required": ["code", "password"],
                        "properties": {
                          "phone": {
                            "type": "string",
                            "description": "E.164-like: optional + and 7-15 digits (spaces and dashes are dropped). Give phone or email."
                          },
                          "email": {"type": "string", "format": "email", "description": "Give phone or email."},
                          "code": {"type": "string", "pattern": "^[0-9]{6}$"},
                          "password": {"type": "string", "minLength": 8, "maxLength": 128}
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Done",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ok"}}}
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "429": {"$ref": "#/components/responses/TooMany"}
                }
              }
            },
            "/v1/sessions": {
              "post": {
                "summary": "Sign in with a password or a login code; unknown accounts and wrong secrets get the same answer",
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "properties": {
                          "phone": {
                            "type": "string",
                            "description": "E.164-like: optional + and 7-15 digits (spaces and dashes are dropped). Give phone or email."
                          },
                          "email": {"type": "string", "format": "email", "description": "Give phone or email."},
                          "password": {"type": "string"},
                          "code": {"type": "string", "pattern": "^[0-9]{6}$"},
                          "device": {
                            "type": "string",
                            "maxLength": 64,
                            "description": "A name for this device, shown in the session list"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "The session token (send it as Authorization)",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"$ref": "#/components/schemas/LoginResult"}}}
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "429": {"$ref": "#/components/responses/TooMany"}
                }
              },
              "get": {
                "summary": "One's own signed-in devices",
                "security": [{"session": []}],
                "responses": {
                  "200": {
                    "description": "Sessions, most recently used first",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {
                              "properties": {"data": {"type": "array", "items": {"$ref": "#/components/schemas/DeviceSession"}}}
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {"$ref": "#/components/responses/Unauthorized"}
                }
              }
            },
            "/v1/sessions/current": {
              "delete": {
                "summary": "Sign out (ends the session that makes the request)",
                "security": [{"session": []}],
                "responses": {
                  "200": {
                    "description": "Done",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ok"}}}
                  },
                  "401": {"$ref": "#/components/responses/Unauthorized"}
                }
              }
            },
            "/v1/sessions/{id}": {
              "delete": {
                "summary": "End one of one's own sessions (another user's is 404)",
                "security": [{"session": []}],
                "parameters": [{"$ref": "#/components/parameters/Id"}],
                "responses": {
                  "200": {
                    "description": "Done",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ok"}}}
                  },
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/v1/codes": {
              "post": {
                "summary": "Send a six-digit code (valid 10 minutes, 5 tries) by SMS or email; the answer is the same whether or not an account exists. At most one a minute and ten a day per phone or email.",
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "properties": {
                          "phone": {
                            "type": "string",
                            "description": "E.164-like: optional + and 7-15 digits (spaces and dashes are dropped). Give phone or email."
                          },
                          "email": {"type": "string", "format": "email", "description": "Give phone or email."},
                          "purpose": {"type": "string", "enum": ["login", "reset", "register"], "default": "login"}
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Sent",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"$ref": "#/components/schemas/CodeSent"}}}
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "429": {"$ref": "#/components/responses/TooMany"}
                }
              }
            },
            "/v1/codes/check": {
              "post": {
                "summary": "Check a code without using it up (counts as a try)",
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "required": ["code"],
                        "properties": {
                          "phone": {
                            "type": "string",
                            "description": "E.164-like: optional + and 7-15 digits (spaces and dashes are dropped). Give phone or email."
                          },
                          "email": {"type": "string", "format": "email", "description": "Give phone or email."},
                          "purpose": {"type": "string", "enum": ["login", "reset", "register"], "default": "login"},
                          "code": {"type": "string", "pattern": "^[0-9]{6}$"}
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Done",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ok"}}}
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "429": {"$ref": "#/components/responses/TooMany"}
                }
              }
            },
            "/v1/admin/users": {
              "get": {
                "summary": "Every user with private fields, paged (administrators only)",
                "security": [{"session": []}],
                "parameters": [{"$ref": "#/components/parameters/Page"}, {"$ref": "#/components/parameters/Size"}],
                "responses": {
                  "200": {
                    "description": "A page of users",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {"$ref": "#/components/schemas/PageInfo"},
                                    {
                                      "properties": {"data": {"type": "array", "items": {"$ref": "#/components/schemas/User"}}}
                                    }
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"}
                }
              }
            },
            "/v1/admin/users/{id}": {
              "patch": {
                "summary": "Disable (signing them out everywhere) or re-enable a user (administrators only)",
                "security": [{"session": []}],
                "parameters": [{"$ref": "#/components/parameters/Id"}],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {"type": "object", "required": ["disabled"], "properties": {"disabled": {"type": "boolean"}}}
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The user",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"$ref": "#/components/schemas/User"}}}
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/v1/admin/outbox": {
              "get": {
                "summary": "Messages the built-in code sender delivered instead of SMS or mail, newest first (administrators only; kept a week)",
                "security": [{"session": []}],
                "parameters": [{"$ref": "#/components/parameters/Page"}, {"$ref": "#/components/parameters/Size"}],
                "responses": {
                  "200": {
                    "description": "A page of messages",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {"$ref": "#/components/schemas/PageInfo"},
                                    {
                                      "properties": {
                                        "data": {"type": "array", "items": {"$ref": "#/components/schemas/OutboxMessage"}}
                                      }
                                    }
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"}
                }
              }
            },
            "/v1/sheets": {
              "get": {
                "summary": "Public sheets, newest first or most collected first",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Page"
                  },
                  {
                    "$ref": "#/components/parameters/Size"
                  },
                  {
                    "name": "order",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "type": "string",
                      "enum": [
                        "new",
                        "hot"
                      ],
                      "default": "new"
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "A page of sheets",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {
                                      "$ref": "#/components/schemas/PageInfo"
                                    },
                                    {
                                      "properties": {
                                        "data": {
                                          "type": "array",
                                          "items": {
                                            "$ref": "#/components/schemas/Sheet"
                                          }
                                        }
                                      }
                                    }
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  }
                }
              },
              "post": {
                "summary": "Create a sheet (at most 1,000 per person)",
                "security": [
                  {
                    "session": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "properties": {
                          "title": {
                            "type": "string",
                            "maxLength": 100
                          },
                          "detail": {
                            "type": "string",
                            "maxLength": 2000
                          },
                          "tags": {
                            "type": "array",
                            "maxItems": 10,
                            "items": {
                              "type": "string",
                              "maxLength": 20
                            }
                          },
                          "isPrivate": {
                            "type": "boolean"
                          }
                        },
                        "required": [
                          "title"
                        ]
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "The new sheet",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/Sheet"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "409": {
                    "$ref": "#/components/responses/Conflict"
                  }
                }
              }
            },
            "/v1/sheets/import": {
              "post": {
                "summary": "Create a sheet from an M3U/M3U8 playlist (the body, or a multipart file); entries match songs by stream address, full path, or 'Artist - Title'",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "name": "title",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "private",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "type": "string",
                      "enum": [
                        "true",
                        "false"
                      ]
                    }
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "audio/x-mpegurl": {
                      "schema": {
                        "type": "string"
                      }
                    },
                    "text/plain": {
                      "schema": {
                        "type": "string"
                      }
                    },
                    "multipart/form-data": {
                      "schema": {
                        "type": "object",
                        "properties": {
                          "file": {
                            "type": "string",
                            "format": "binary"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "The new sheet and what matched",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "type": "object",
                                  "required": [
                                    "sheet",
                                    "matched",
                                    "unmatched"
                                  ],
                                  "properties": {
                                    "sheet": {
                                      "$ref": "#/components/schemas/Sheet"
                                    },
                                    "matched": {
                                      "type": "integer"
                                    },
                                    "unmatched": {
                                      "type": "array",
                                      "items": {
                                        "type": "string"
                                      }
                                    }
                                  }
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "409": {
                    "$ref": "#/components/responses/Conflict"
                  },
                  "413": {
                    "$ref": "#/components/responses/TooLarge"
                  }
                }
              }
            },
            "/v1/sheets/{id}": {
              "get": {
                "summary": "A sheet with its first songs; a private sheet is a 404 to all but its owner; a view by anyone else counts as a click",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  },
                  {
                    "name": "songs",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "type": "integer",
                      "minimum": 0,
                      "maximum": 1000,
                      "default": 100
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The sheet, with songs",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/Sheet"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              },
              "patch": {
                "summary": "Change one's own sheet (title, detail, tags, privacy); making it private removes it from others' collections",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "properties": {
                          "title": {
                            "type": "string",
                            "maxLength": 100
                          },
                          "detail": {
                            "type": "string",
                            "maxLength": 2000
                          },
                          "tags": {
                            "type": "array",
                            "maxItems": 10,
                            "items": {
                              "type": "string",
                              "maxLength": 20
                            }
                          },
                          "isPrivate": {
                            "type": "boolean"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The sheet",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/Sheet"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              },
              "delete": {
                "summary": "Delete one's own sheet (not \"I like\")",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "responses": {
                  "200": {
                    "$ref": "#/components/responses/Done"
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/sheets/{id}/songs": {
              "get": {
                "summary": "A sheet's songs in order, paged",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  },
                  {
                    "$ref": "#/components/parameters/Page"
                  },
                  {
                    "$ref": "#/components/parameters/Size"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "A page of songs",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {
                                      "$ref": "#/components/schemas/PageInfo"
                                    },
                                    {
                                      "properties": {
                                        "data": {
                                          "type": "array",
                                          "items": {
                                            "$ref": "#/components/schemas/Song"
                                          }
                                        }
                                      }
                                    }
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/sheets/{id}/relations": {
              "post": {
                "summary": "Add songs to one's own sheet (appended; already present ones are skipped; at most 10,000 songs a sheet)",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "required": [
                          "songIds"
                        ],
                        "properties": {
                          "songIds": {
                            "type": "array",
                            "minItems": 1,
                            "maxItems": 1000,
                            "items": {
                              "type": "string"
                            }
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The sheet",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/Sheet"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "409": {
                    "$ref": "#/components/responses/Conflict"
                  }
                }
              },
              "delete": {
                "summary": "Remove songs from one's own sheet",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  },
                  {
                    "name": "songIds",
                    "in": "query",
                    "required": true,
                    "description": "Comma-separated song ids",
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The sheet",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/Sheet"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/sheets/{id}/relations/{songId}": {
              "patch": {
                "summary": "Move a song to another place in one's own sheet (0 is first)",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  },
                  {
                    "name": "songId",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string"
                    },
                    "description": "A song's id"
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "required": [
                          "position"
                        ],
                        "properties": {
                          "position": {
                            "type": "integer",
                            "minimum": 0
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The sheet",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/Sheet"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              },
              "delete": {
                "summary": "Remove one song from one's own sheet",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  },
                  {
                    "name": "songId",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string"
                    },
                    "description": "A song's id"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The sheet",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/Sheet"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/sheets/{id}/cover": {
              "get": {
                "summary": "A sheet's uploaded cover (JPEG); without one, the sheet's icon is its first song's album cover",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "JPEG",
                    "content": {
                      "image/jpeg": {
                        "schema": {
                          "type": "string",
                          "format": "binary"
                        }
                      }
                    }
                  },
                  "304": {
                    "description": "Not modified"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              },
              "post": {
                "summary": "Upload a cover for one's own sheet (JPEG, PNG or WebP, checked by content, at most 10 MB)",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "multipart/form-data": {
                      "schema": {
                        "type": "object",
                        "required": [
                          "file"
                        ],
                        "properties": {
                          "file": {
                            "type": "string",
                            "format": "binary"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The sheet with its new icon",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/Sheet"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "413": {
                    "$ref": "#/components/responses/TooLarge"
                  },
                  "415": {
                    "$ref": "#/components/responses/Unsupported"
                  }
                }
              },
              "delete": {
                "summary": "Remove one's own sheet's cover",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The sheet",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/Sheet"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/sheets/{id}/m3u": {
              "get": {
                "summary": "The sheet as an extended M3U (UTF-8) of stream addresses",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "M3U text",
                    "content": {
                      "audio/x-mpegurl": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/songs/{id}/like": {
              "put": {
                "summary": "Like a song: it goes to the top of one's \"I like\" sheet",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The \"I like\" sheet",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/Sheet"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "409": {
                    "$ref": "#/components/responses/Conflict"
                  }
                }
              },
              "delete": {
                "summary": "Stop liking a song",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The \"I like\" sheet",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/Sheet"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/users/{id}/create": {
              "get": {
                "summary": "Sheets a user made, \"I like\" first; private ones only for that user",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  },
                  {
                    "$ref": "#/components/parameters/Page"
                  },
                  {
                    "$ref": "#/components/parameters/Size"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "A page of sheets",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {
                                      "$ref": "#/components/schemas/PageInfo"
                                    },
                                    {
                                      "properties": {
                                        "data": {
                                          "type": "array",
                                          "items": {
                                            "$ref": "#/components/schemas/Sheet"
                                          }
                                        }
                                      }
                                    }
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/users/{id}/collect": {
              "get": {
                "summary": "Public sheets a user collected, newest first",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  },
                  {
                    "$ref": "#/components/parameters/Page"
                  },
                  {
                    "$ref": "#/components/parameters/Size"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "A page of sheets",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {
                                      "$ref": "#/components/schemas/PageInfo"
                                    },
                                    {
                                      "properties": {
                                        "data": {
                                          "type": "array",
                                          "items": {
                                            "$ref": "#/components/schemas/Sheet"
                                          }
                                        }
                                      }
                                    }
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/collections": {
              "post": {
                "summary": "Collect someone else's public sheet",
                "security": [
                  {
                    "session": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "required": [
                          "sheetId"
                        ],
                        "properties": {
                          "sheetId": {
                            "type": "string"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "The sheet, collected",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/Sheet"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/collections/{id}": {
              "delete": {
                "summary": "Uncollect a sheet (id is the sheet's)",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "responses": {
                  "200": {
                    "$ref": "#/components/responses/Done"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/plays": {
              "post": {
                "summary": "Report that the signed-in person played a song (streams alone do not count; the same song again within 30 s is not counted)",
                "security": [
                  {
                    "session": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "required": [
                          "songId"
                        ],
                        "properties": {
                          "songId": {
                            "type": "string"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "Whether it counted",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "type": "object",
                                  "required": [
                                    "counted"
                                  ],
                                  "properties": {
                                    "counted": {
                                      "type": "boolean"
                                    }
                                  }
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              },
              "get": {
                "summary": "One's play history: recently played, or most played",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Page"
                  },
                  {
                    "$ref": "#/components/parameters/Size"
                  },
                  {
                    "name": "order",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "type": "string",
                      "enum": [
                        "recent",
                        "most"
                      ],
                      "default": "recent"
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "A page of played songs",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {
                                      "$ref": "#/components/schemas/PageInfo"
                                    },
                                    {
                                      "properties": {
                                        "data": {
                                          "type": "array",
                                          "items": {
                                            "$ref": "#/components/schemas/PlayedSong"
                                          }
                                        }
                                      }
                                    }
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  }
                }
              },
              "delete": {
                "summary": "Forget one's play history (the catalog's play counts stay)",
                "security": [
                  {
                    "session": []
                  }
                ],
                "responses": {
                  "200": {
                    "$ref": "#/components/responses/Done"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  }
                }
              }
            },
            "/v1/queue": {
              "get": {
                "summary": "One's saved play queue (empty, version 0, when never saved)",
                "security": [
                  {
                    "session": []
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The queue",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/PlayQueue"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  }
                }
              },
              "put": {
                "summary": "Save one's play queue (at most 5,000 songs); with baseVersion, a queue changed elsewhere since is a 409",
                "security": [
                  {
                    "session": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "required": [
                          "songIds"
                        ],
                        "properties": {
                          "songIds": {
                            "type": "array",
                            "maxItems": 5000,
                            "items": {
                              "type": "string"
                            }
                          },
                          "currentIndex": {
                            "type": "integer",
                            "minimum": 0
                          },
                          "position": {
                            "type": "integer",
                            "minimum": 0,
                            "description": "Milliseconds into the current song"
                          },
                          "loopMode": {
                            "type": "string",
                            "enum": [
                              "list",
                              "single",
                              "shuffle"
                            ]
                          },
                          "baseVersion": {
                            "type": "integer"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The saved queue",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/PlayQueue"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "409": {
                    "$ref": "#/components/responses/Conflict"
                  }
                }
              }
            },
            "/v1/files/multi": {
              "post": {
                "summary": "Upload pictures (up to 9 file parts, at most 20 MB each, 30 files a minute per person). The type is read from the bytes (JPEG, PNG, WebP, GIF), never the name; each picture is re-encoded without any metadata (EXIF, GPS), its long side capped at 2048 px, with a 360 px thumbnail. JPEG and WebP are stored as JPEG, PNG as PNG, GIF as a PNG of its first frame. The same bytes are stored once and always get the same id. Nothing is stored when any part is refused.",
                "security": [{"session": []}],
                "requestBody": {
                  "required": true,
                  "content": {
                    "multipart/form-data": {
                      "schema": {
                        "type": "object",
                        "properties": {
                          "file": {"type": "array", "maxItems": 9, "items": {"type": "string", "format": "binary"}}
                        },
                        "description": "Any field names; every file part is one picture"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The stored files, in the order of the parts",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"type": "array", "items": {"$ref": "#/components/schemas/StoredFile"}}}}
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "413": {"$ref": "#/components/responses/TooLarge"},
                  "415": {"$ref": "#/components/responses/Unsupported"},
                  "429": {"$ref": "#/components/responses/TooMany"}
                }
              }
            },
            "/v1/files/{name}": {
              "get": {
                "summary": "A stored upload or its thumbnail: <id>.jpg, <id>.thumb.jpg, <id>.png or <id>.thumb.png, as the upload answered (uri, icon). The bytes under a name never change, so it may be cached for a year.",
                "parameters": [
                  {"name": "name", "in": "path", "required": true, "schema": {"type": "string", "pattern": "^[0-9a-f]{64}(\\.thumb)?\\.(jpg|png)$"}}
                ],
                "responses": {
                  "200": {
                    "description": "The picture",
                    "content": {
                      "image/jpeg": {"schema": {"type": "string", "format": "binary"}},
                      "image/png": {"schema": {"type": "string", "format": "binary"}}
                    }
                  },
                  "304": {"description": "Not modified"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/v1/comments": {
              "get": {
                "summary": "Comments on a song, a sheet or a moment (give songId, sheetId or feedId), or the replies to one comment (parentId); newest or hot first; paged by page/size or, for deep pages, by cursor",
                "parameters": [
                  {
                    "name": "songId",
                    "in": "query",
                    "required": false,
                    "description": "A song's id",
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "sheetId",
                    "in": "query",
                    "required": false,
                    "description": "A sheet's id",
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "feedId",
                    "in": "query",
                    "required": false,
                    "description": "A moment's id",
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "parentId",
                    "in": "query",
                    "required": false,
                    "description": "List the replies to this comment",
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "order",
                    "in": "query",
                    "required": false,
                    "description": "new or hot (likes and replies, decaying with age)",
                    "schema": {
                      "type": "string",
                      "enum": [
                        "new",
                        "hot"
                      ],
                      "default": "new"
                    }
                  },
                  {
                    "name": "cursor",
                    "in": "query",
                    "required": false,
                    "description": "nextCursor from the previous page",
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "$ref": "#/components/parameters/Page"
                  },
                  {
                    "$ref": "#/components/parameters/Size"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "A page of comments",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/CommentPage"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              },
              "post": {
                "summary": "Write a comment (1-1,000 characters) on a song or a sheet, or a reply (parentId); at most 5 a minute and 200 a day",
                "security": [
                  {
                    "session": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "required": [
                          "content"
                        ],
                        "properties": {
                          "content": {
                            "type": "string",
                            "maxLength": 1000
                          },
                          "songId": {
                            "type": "string"
                          },
                          "sheetId": {
                            "type": "string"
                          },
                          "feedId": {
                            "type": "string"
                          },
                          "parentId": {
                            "type": "string"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "The comment",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/Comment"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "429": {
                    "$ref": "#/components/responses/TooMany"
                  }
                }
              }
            },
            "/v1/comments/{id}": {
              "get": {
                "summary": "One comment",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The comment",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/Comment"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              },
              "delete": {
                "summary": "Delete one's own comment (administrators: any); its replies stay, without their quote",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "responses": {
                  "200": {
                    "$ref": "#/components/responses/Done"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/comments/{id}/reports": {
              "post": {
                "summary": "Report a comment to the administrators",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "requestBody": {
                  "required": false,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "properties": {
                          "reason": {
                            "type": "string",
                            "maxLength": 200
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "$ref": "#/components/responses/Done"
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/feeds": {
              "get": {
                "summary": "Moments, newest first, paged by cursor: everyone's, one user's (userId) or one topic's (topicId); moments of people who blocked the viewer, or whom the viewer blocked, are left out",
                "parameters": [
                  {"name": "userId", "in": "query", "required": false, "description": "Only this user's moments", "schema": {"type": "string"}},
                  {"name": "topicId", "in": "query", "required": false, "description": "Only moments with this #topic#", "schema": {"type": "string"}},
                  {"name": "cursor", "in": "query", "required": false, "description": "nextCursor from the previous page", "schema": {"type": "string"}},
                  {"name": "size", "in": "query", "required": false, "description": "Moments per page (1-100, default 20)", "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}}
                ],
                "responses": {"200": {"description": "Moments", "content": {"application/json": {"schema": {"allOf": [{"$ref": "#/components/schemas/Ok"}, {"properties": {"data": {"$ref": "#/components/schemas/FeedPage"}}}]}}}}, "400": {"$ref": "#/components/responses/BadRequest"}}
              },
              "post": {
                "summary": "Publish a moment: text (@mentions and #topics# resolved as in comments), up to nine pictures uploaded with POST v1/files/multi, and an optional place",
                "security": [{"session": []}],
                "requestBody": {
                  "required": true,
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/FeedInput"}}}
                },
                "responses": {
                  "201": {"description": "The moment", "content": {"application/json": {"schema": {"allOf": [{"$ref": "#/components/schemas/Ok"}, {"properties": {"data": {"$ref": "#/components/schemas/Feed"}}}]}}}},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "429": {"$ref": "#/components/responses/TooMany"}
                }
              }
            },
            "/v1/feeds/timeline": {
              "get": {
                "summary": "The timeline: moments of the people I follow and my own, newest first, paged by cursor",
                "security": [{"session": []}],
                "parameters": [{"name": "cursor", "in": "query", "required": false, "description": "nextCursor from the previous page", "schema": {"type": "string"}}, {"name": "size", "in": "query", "required": false, "description": "Moments per page (1-100, default 20)", "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}}],
                "responses": {
                  "200": {"description": "The timeline", "content": {"application/json": {"schema": {"allOf": [{"$ref": "#/components/schemas/Ok"}, {"properties": {"data": {"$ref": "#/components/schemas/FeedPage"}}}]}}}},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"$ref": "#/components/responses/Unauthorized"}
                }
              }
            },
            "/v1/feeds/nearby": {
              "get": {
                "summary": "Placed moments within a radius of a point, nearest first (each with its distance in metres), paged by cursor",
                "parameters": [
                  {"name": "latitude", "in": "query", "required": true, "description": "Degrees, -90 to 90", "schema": {"type": "number"}},
                  {"name": "longitude", "in": "query", "required": true, "description": "Degrees, -180 to 180", "schema": {"type": "number"}},
                  {"name": "radius", "in": "query", "required": false, "description": "Metres, up to 100000", "schema": {"type": "number", "default": 5000}},
                  {"name": "cursor", "in": "query", "required": false, "description": "nextCursor from the previous page", "schema": {"type": "string"}},
                  {"name": "size", "in": "query", "required": false, "description": "Moments per page (1-100, default 20)", "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}}
                ],
                "responses": {"200": {"description": "Nearby moments", "content": {"application/json": {"schema": {"allOf": [{"$ref": "#/components/schemas/Ok"}, {"properties": {"data": {"$ref": "#/components/schemas/FeedPage"}}}]}}}}, "400": {"$ref": "#/components/responses/BadRequest"}}
              }
            },
            "/v1/feeds/{id}": {
              "get": {
                "summary": "One moment",
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "The moment", "content": {"application/json": {"schema": {"allOf": [{"$ref": "#/components/schemas/Ok"}, {"properties": {"data": {"$ref": "#/components/schemas/Feed"}}}]}}}}, "404": {"$ref": "#/components/responses/NotFound"}}
              },
              "delete": {
                "summary": "Delete a moment (your own; administrators any), with its likes and comments",
                "security": [{"session": []}],
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {
                  "200": {"$ref": "#/components/responses/Done"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/v1/likes": {
              "post": {
                "summary": "Like a comment (commentId) or a moment (feedId); the comment or moment comes back with likeId. Liking twice is one like",
                "security": [
                  {
                    "session": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "description": "Exactly one of commentId and feedId",
                        "properties": {
                          "commentId": {
                            "type": "string"
                          },
                          "feedId": {
                            "type": "string"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "The comment or the moment",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "oneOf": [{"$ref": "#/components/schemas/Comment"}, {"$ref": "#/components/schemas/Feed"}]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/likes/{id}": {
              "delete": {
                "summary": "Take back one's like (id is the likeId)",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "responses": {
                  "200": {
                    "$ref": "#/components/responses/Done"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/admin/reports": {
              "get": {
                "summary": "Reported comments, most recently reported first (administrators)",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Page"
                  },
                  {
                    "$ref": "#/components/parameters/Size"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "A page of reports",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {
                                      "$ref": "#/components/schemas/PageInfo"
                                    },
                                    {
                                      "properties": {
                                        "data": {
                                          "type": "array",
                                          "items": {
                                            "$ref": "#/components/schemas/CommentReport"
                                          }
                                        }
                                      }
                                    }
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  }
                }
              }
            },
            "/v1/admin/comments/{id}": {
              "patch": {
                "summary": "Hide or show a comment (administrators); a hidden comment leaves lists and counts",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "required": [
                          "hidden"
                        ],
                        "properties": {
                          "hidden": {
                            "type": "boolean"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "$ref": "#/components/responses/Done"
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/topics": {
              "get": {
                "summary": "#Topics#, most commented first",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Page"
                  },
                  {
                    "$ref": "#/components/parameters/Size"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "A page of topics",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {
                                      "$ref": "#/components/schemas/PageInfo"
                                    },
                                    {
                                      "properties": {
                                        "data": {
                                          "type": "array",
                                          "items": {
                                            "$ref": "#/components/schemas/Topic"
                                          }
                                        }
                                      }
                                    }
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  }
                }
              }
            },
            "/v1/topics/{id}": {
              "get": {
                "summary": "A topic's page: the topic and its comments, newest first (cursor for older ones)",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  },
                  {
                    "$ref": "#/components/parameters/Size"
                  },
                  {
                    "name": "cursor",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The topic and its comments",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "type": "object",
                                  "required": [
                                    "topic",
                                    "comments"
                                  ],
                                  "properties": {
                                    "topic": {
                                      "$ref": "#/components/schemas/Topic"
                                    },
                                    "feeds": {"type": "array", "items": {"$ref": "#/components/schemas/Feed"}, "description": "The newest moments; more with GET v1/feeds?topicId="},
                                    "nextFeedsCursor": {"type": "string"},
                                    "comments": {
                                      "type": "array",
                                      "items": {
                                        "$ref": "#/components/schemas/Comment"
                                      }
                                    },
                                    "nextCursor": {
                                      "type": "string"
                                    }
                                  }
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/friends": {
              "post": {
                "summary": "Follow someone (not oneself, not someone who blocked you)",
                "security": [
                  {
                    "session": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "required": [
                          "userId"
                        ],
                        "properties": {
                          "userId": {
                            "type": "string"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "The person followed",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "$ref": "#/components/schemas/User"
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/friends/{id}": {
              "delete": {
                "summary": "Unfollow (id is the person's)",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "responses": {
                  "200": {
                    "$ref": "#/components/responses/Done"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/users/{id}/following": {
              "get": {
                "summary": "Whom a user follows, newest first",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  },
                  {
                    "$ref": "#/components/parameters/Page"
                  },
                  {
                    "$ref": "#/components/parameters/Size"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "A page of users (public fields, with `following` as the viewer sees it)",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {
                                      "$ref": "#/components/schemas/PageInfo"
                                    },
                                    {
                                      "properties": {
                                        "data": {
                                          "type": "array",
                                          "items": {
                                            "$ref": "#/components/schemas/User"
                                          }
                                        }
                                      }
                                    }
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/users/{id}/followers": {
              "get": {
                "summary": "Who follows a user, newest first",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  },
                  {
                    "$ref": "#/components/parameters/Page"
                  },
                  {
                    "$ref": "#/components/parameters/Size"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "A page of users (public fields, with `following` as the viewer sees it)",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {
                                      "$ref": "#/components/schemas/PageInfo"
                                    },
                                    {
                                      "properties": {
                                        "data": {
                                          "type": "array",
                                          "items": {
                                            "$ref": "#/components/schemas/User"
                                          }
                                        }
                                      }
                                    }
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/users/{id}/friends": {
              "get": {
                "summary": "A user's friends: people they follow who follow them back",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  },
                  {
                    "$ref": "#/components/parameters/Page"
                  },
                  {
                    "$ref": "#/components/parameters/Size"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "A page of users (public fields, with `following` as the viewer sees it)",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {
                                      "$ref": "#/components/schemas/PageInfo"
                                    },
                                    {
                                      "properties": {
                                        "data": {
                                          "type": "array",
                                          "items": {
                                            "$ref": "#/components/schemas/User"
                                          }
                                        }
                                      }
                                    }
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/blocks": {
              "get": {
                "summary": "The people one has blocked",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Page"
                  },
                  {
                    "$ref": "#/components/parameters/Size"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "A page of users (public fields, with `following` as the viewer sees it)",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "allOf": [
                                    {
                                      "$ref": "#/components/schemas/PageInfo"
                                    },
                                    {
                                      "properties": {
                                        "data": {
                                          "type": "array",
                                          "items": {
                                            "$ref": "#/components/schemas/User"
                                          }
                                        }
                                      }
                                    }
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  }
                }
              },
              "post": {
                "summary": "Block someone: they stop following you and can no longer follow or mention you",
                "security": [
                  {
                    "session": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "required": [
                          "userId"
                        ],
                        "properties": {
                          "userId": {
                            "type": "string"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "$ref": "#/components/responses/Done"
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/blocks/{id}": {
              "delete": {
                "summary": "Unblock (id is the person's)",
                "security": [
                  {
                    "session": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/Id"
                  }
                ],
                "responses": {
                  "200": {
                    "$ref": "#/components/responses/Done"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/v1/searches/sheets": {
              "get": {
                "summary": "Public sheets whose title or tags match what was typed (Latin words by prefix, CJK as substrings), best first; the first 1,000 matches are ranked and counted",
                "parameters": [
                  {"name": "query", "in": "query", "required": true, "schema": {"type": "string", "maxLength": 100}},
                  {"$ref": "#/components/parameters/Page"},
                  {"$ref": "#/components/parameters/Size"}
                ],
                "responses": {
                  "200": {
                    "description": "Matching sheets",
                    "content": {"application/json": {"schema": {"allOf": [
                      {"$ref": "#/components/schemas/Ok"},
                      {"properties": {"data": {"allOf": [
                        {"$ref": "#/components/schemas/PageInfo"},
                        {"properties": {"data": {"type": "array", "items": {"$ref": "#/components/schemas/Sheet"}}}}
                      ]}}}
                    ]}}}
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"}
                }
              }
            },
            "/v1/searches/users": {
              "get": {
                "summary": "People whose nickname starts with what was typed (the mention picker): friends first, then people one follows; never someone who blocked the viewer",
                "parameters": [
                  {
                    "name": "query",
                    "in": "query",
                    "required": true,
                    "schema": {
                      "type": "string",
                      "maxLength": 32
                    }
                  },
                  {
                    "name": "size",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "type": "integer",
                      "minimum": 1,
                      "maximum": 50,
                      "default": 20
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "Matching people",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Ok"
                            },
                            {
                              "properties": {
                                "data": {
                                  "type": "array",
                                  "items": {
                                    "$ref": "#/components/schemas/User"
                                  }
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  }
                }
              }
            },
            "/v1/notifications": {
              "get": {
                "summary": "The signed-in person's notifications (mentions, replies, likes, follows, comments on their sheets), newest first; paged by page/size or by cursor",
                "security": [{"session": []}],
                "parameters": [
                  {
                    "name": "unread",
                    "in": "query",
                    "required": false,
                    "description": "true for unread notifications only",
                    "schema": {"type": "boolean", "default": false}
                  },
                  {
                    "name": "cursor",
                    "in": "query",
                    "required": false,
                    "description": "nextCursor from the previous page",
                    "schema": {"type": "string"}
                  },
                  {"$ref": "#/components/parameters/Page"},
                  {"$ref": "#/components/parameters/Size"}
                ],
                "responses": {
                  "200": {
                    "description": "A page of notifications",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"$ref": "#/components/schemas/NotificationPage"}}}
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"$ref": "#/components/responses/Unauthorized"}
                }
              }
            },
            "/v1/notifications/unread": {
              "get": {
                "summary": "How many of the signed-in person's notifications are unread, in all and by kind",
                "security": [{"session": []}],
                "responses": {
                  "200": {"$ref": "#/components/responses/UnreadNotificationsResponse"},
                  "401": {"$ref": "#/components/responses/Unauthorized"}
                }
              }
            },
            "/v1/notifications/{id}": {
              "patch": {
                "summary": "Mark one of one's own notifications read (or unread again); anyone else's is a 404",
                "security": [{"session": []}],
                "parameters": [{"$ref": "#/components/parameters/Id"}],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "required": ["read"],
                        "properties": {"read": {"type": "boolean"}}
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The notification as it is now",
                    "content": {
                      "application/json": {
                        "schema": {
                          "allOf": [
                            {"$ref": "#/components/schemas/Ok"},
                            {"properties": {"data": {"$ref": "#/components/schemas/Notification"}}}
                          ]
                        }
                      }
                    }
                  },
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "404": {"$ref": "#/components/responses/NotFound"}
                }
              }
            },
            "/v1/notifications/read": {
              "post": {
                "summary": "Mark all of one's notifications read, or only those up to what one saw",
                "security": [{"session": []}],
                "requestBody": {
                  "required": false,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "properties": {
                          "before": {
                            "type": "string",
                            "description": "The newest notification id the person saw: it and every older one are marked read"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {"$ref": "#/components/responses/UnreadNotificationsResponse"},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"$ref": "#/components/responses/Unauthorized"}
                }
              }
            }
          },
          "components": {
            "securitySchemes": {
              "session": {
                "type": "apiKey",
                "in": "header",
                "name": "Authorization",
                "description": "The session token from POST /v1/sessions, alone or after 'Bearer '."
              }
            },
            "responses": {
              "UnreadNotificationsResponse": {
                "description": "The unread counts",
                "content": {
                  "application/json": {
                    "schema": {
                      "allOf": [
                        {"$ref": "#/components/schemas/Ok"},
                        {"properties": {"data": {"$ref": "#/components/schemas/UnreadNotifications"}}}
                      ]
                    }
                  }
                }
              },
              "Done": {
                "description": "Done: {\"status\":0}",
                "content": {
                  "application/json": {
                    "schema": {
                      "type": "object",
                      "required": [
                        "status"
                      ],
                      "properties": {
                        "status": {
                          "type": "integer",
                          "enum": [
                            0
                          ]
                        }
                      }
                    }
                  }
                }
              },
              "Unauthorized": {
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                "description": "Not signed in, or the session ended; also a wrong sign-in (same answer for unknown accounts)"
              },
              "Conflict": {
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                "description": "Taken (nickname, phone or email)"
              },
              "TooLarge": {
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                "description": "Too big"
              },
              "Unsupported": {
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                "description": "Not a picture the server reads (checked by content)"
              },
              "BadRequest": {
                "description": "The request is malformed; the message says what to change",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
              },
              "NotFound": {
                "description": "No such thing",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
              },
              "Forbidden": {
                "description": "Not allowed",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
              },
              "TooMany": {
                "description": "Too many at once; try again later",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
              },
              "V1LibraryScanResponse": {
                "description": "Scan status",
                "content": {
                  "application/json": {
                    "schema": {
                      "allOf": [
                        {"$ref": "#/components/schemas/Ok"},
                        {"properties": {"data": {"$ref": "#/components/schemas/ScanStatus"}}}
                      ]
                    }
                  }
                }
              }
            },
            "schemas": {
              "TextRange": {
                "type": "object",
                "required": [
                  "utf16Offset",
                  "utf16Length",
                  "scalarOffset",
                  "scalarLength"
                ],
                "description": "Where a mention or topic stands in the text, in UTF-16 code units (iOS text views) and in Unicode scalars",
                "properties": {
                  "utf16Offset": {
                    "type": "integer"
                  },
                  "utf16Length": {
                    "type": "integer"
                  },
                  "scalarOffset": {
                    "type": "integer"
                  },
                  "scalarLength": {
                    "type": "integer"
                  }
                }
              },
              "Mention": {
                "type": "object",
                "required": [
                  "userId",
                  "nickname",
                  "range"
                ],
                "properties": {
                  "userId": {
                    "type": "string"
                  },
                  "nickname": {
                    "type": "string"
                  },
                  "range": {
                    "$ref": "#/components/schemas/TextRange"
                  }
                }
              },
              "TopicMention": {
                "type": "object",
                "required": [
                  "id",
                  "title",
                  "range"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "title": {
                    "type": "string"
                  },
                  "range": {
                    "$ref": "#/components/schemas/TextRange"
                  }
                }
              },
              "Topic": {
                "type": "object",
                "required": [
                  "id",
                  "title",
                  "commentsCount",
                  "createdAt"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "title": {
                    "type": "string"
                  },
                  "commentsCount": {
                    "type": "integer"
                  },
                  "feedsCount": {
                    "type": "integer",
                    "description": "Moments with this topic"
                  },
                  "createdAt": {
                    "type": "string",
                    "format": "date-time"
                  }
                }
              },
              "CommentQuote": {
                "type": "object",
                "required": [
                  "id",
                  "content",
                  "user",
                  "createdAt"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "content": {
                    "type": "string"
                  },
                  "user": {
                    "$ref": "#/components/schemas/UserSummary"
                  },
                  "createdAt": {
                    "type": "string",
                    "format": "date-time"
                  }
                }
              },
              "Comment": {
                "type": "object",
                "required": [
                  "id",
                  "content",
                  "likesCount",
                  "repliesCount",
                  "user",
                  "createdAt",
                  "updatedAt"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "content": {
                    "type": "string"
                  },
                  "likesCount": {
                    "type": "integer"
                  },
                  "repliesCount": {
                    "type": "integer"
                  },
                  "likeId": {
                    "type": "string",
                    "description": "The viewer's like, absent when not liked"
                  },
                  "parentId": {
                    "type": "string"
                  },
                  "parent": {
                    "$ref": "#/components/schemas/CommentQuote"
                  },
                  "songId": {
                    "type": "string"
                  },
                  "sheetId": {
                    "type": "string"
                  },
                  "feedId": {
                    "type": "string"
                  },
                  "mentions": {"type": "array", "items": {"$ref": "#/components/schemas/Mention"}, "description": "@mentions of people who exist"},
                  "topics": {"type": "array", "items": {"$ref": "#/components/schemas/TopicMention"}},
                  "user": {
                    "$ref": "#/components/schemas/UserSummary"
                  },
                  "createdAt": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "updatedAt": {
                    "type": "string",
                    "format": "date-time"
                  }
                }
              },
              "FeedImage": {
                "type": "object",
                "required": ["uri"],
                "properties": {
                  "uri": {"type": "string", "description": "The picture, relative to the server root"},
                  "icon": {"type": "string", "description": "Its thumbnail"},
                  "width": {"type": "integer"},
                  "height": {"type": "integer"}
                }
              },
              "Feed": {
                "type": "object",
                "description": "A moment",
                "required": ["id", "content", "images", "likesCount", "commentsCount", "user", "mentions", "topics", "createdAt", "updatedAt"],
                "properties": {
                  "id": {"type": "string"},
                  "content": {"type": "string"},
                  "images": {"type": "array", "items": {"$ref": "#/components/schemas/FeedImage"}},
                  "province": {"type": "string"},
                  "city": {"type": "string"},
                  "place": {"type": "string", "description": "The place's name"},
                  "latitude": {"type": "number"},
                  "longitude": {"type": "number"},
                  "distance": {"type": "number", "description": "Metres from the point asked about (nearby lists only)"},
                  "likesCount": {"type": "integer"},
                  "commentsCount": {"type": "integer"},
                  "likeId": {"type": "string", "description": "The viewer's like, absent when not liked"},
                  "user": {"$ref": "#/components/schemas/UserSummary"},
                  "mentions": {"type": "array", "items": {"$ref": "#/components/schemas/Mention"}},
                  "topics": {"type": "array", "items": {"$ref": "#/components/schemas/TopicMention"}},
                  "createdAt": {"type": "string", "format": "date-time"},
                  "updatedAt": {"type": "string", "format": "date-time"}
                }
              },
              "FeedInput": {
                "type": "object",
                "description": "Text or at least one picture; latitude and longitude together or not at all",
                "properties": {
                  "content": {"type": "string", "maxLength": 2000},
                  "images": {"type": "array", "maxItems": 9, "items": {"type": "object", "required": ["uri"], "properties": {"uri": {"type": "string", "description": "A uri from POST v1/files/multi"}}}},
                  "province": {"type": "string", "maxLength": 50},
                  "city": {"type": "string", "maxLength": 50},
                  "place": {"type": "string", "maxLength": 100},
                  "latitude": {"type": "number", "minimum": -90, "maximum": 90},
                  "longitude": {"type": "number", "minimum": -180, "maximum": 180}
                }
              },
              "FeedPage": {
                "type": "object",
                "required": ["size", "data"],
                "properties": {
                  "size": {"type": "integer"},
                  "nextCursor": {"type": "string", "nullable": true, "description": "Pass as cursor for the next page; null on the last"},
                  "data": {"type": "array", "items": {"$ref": "#/components/schemas/Feed"}}
                }
              },
              "CommentPage": {
                "type": "object",
                "required": [
                  "total",
                  "pages",
                  "size",
                  "page",
                  "data"
                ],
                "properties": {
                  "total": {
                    "type": "integer"
                  },
                  "pages": {
                    "type": "integer"
                  },
                  "size": {
                    "type": "integer"
                  },
                  "page": {
                    "type": "integer",
                    "description": "0 when reached by cursor"
                  },
                  "next": {
                    "type": "integer"
                  },
                  "nextCursor": {
                    "type": "string"
                  },
                  "data": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Comment"
                    }
                  }
                }
              },
              "CommentReport": {
                "type": "object",
                "required": [
                  "comment",
                  "hidden",
                  "reportsCount",
                  "reasons",
                  "lastReportedAt"
                ],
                "properties": {
                  "comment": {
                    "$ref": "#/components/schemas/Comment"
                  },
                  "hidden": {
                    "type": "boolean"
                  },
                  "reportsCount": {
                    "type": "integer"
                  },
                  "reasons": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  },
                  "lastReportedAt": {
                    "type": "string",
                    "format": "date-time"
                  }
                }
              },
              "Notification": {
                "type": "object",
                "required": ["id", "kind", "read", "actor", "createdAt", "updatedAt"],
                "properties": {
                  "id": {"type": "string"},
                  "kind": {
                    "type": "string",
                    "description": "mention, reply, like, follow or comment (on a sheet of the recipient's); show unknown kinds as plain text",
                    "enum": ["mention", "reply", "like", "follow", "comment"]
                  },
                  "read": {"type": "boolean"},
                  "actor": {"$ref": "#/components/schemas/UserSummary"},
                  "comment": {"$ref": "#/components/schemas/NotificationComment"},
                  "feedId": {"type": "string", "description": "The moment it is about, when there is one"},
                  "createdAt": {"type": "string", "format": "date-time"},
                  "updatedAt": {"type": "string", "format": "date-time"}
                }
              },
              "NotificationComment": {
                "type": "object",
                "required": ["id", "content"],
                "description": "A short quote of the comment a notification is about (at most 100 characters, then an ellipsis; empty when moderators hid it)",
                "properties": {
                  "id": {"type": "string"},
                  "content": {"type": "string"},
                  "parentId": {"type": "string"},
                  "songId": {"type": "string"},
                  "sheetId": {"type": "string"},
                  "feedId": {"type": "string", "description": "The moment the comment is on"}
                }
              },
              "NotificationPage": {
                "type": "object",
                "required": ["total", "pages", "size", "page", "data"],
                "properties": {
                  "total": {"type": "integer"},
                  "pages": {"type": "integer"},
                  "size": {"type": "integer"},
                  "page": {"type": "integer", "description": "0 when reached by cursor"},
                  "next": {"type": "integer", "nullable": true},
                  "nextCursor": {"type": "string", "nullable": true},
                  "data": {"type": "array", "items": {"$ref": "#/components/schemas/Notification"}}
                }
              },
              "UnreadNotifications": {
                "type": "object",
                "required": ["count", "kinds"],
                "properties": {
                  "count": {"type": "integer"},
                  "kinds": {
                    "type": "object",
                    "description": "Unread by kind, every kind the server knows (0 for none)",
                    "additionalProperties": {"type": "integer"}
                  }
                }
              },
              "UserSummary": {
                "type": "object",
                "required": [
                  "id",
                  "nickname"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "nickname": {
                    "type": "string"
                  },
                  "icon": {
                    "type": "string"
                  }
                }
              },
              "Sheet": {
                "type": "object",
                "required": [
                  "id",
                  "title",
                  "tags",
                  "isPrivate",
                  "kind",
                  "clicksCount",
                  "collectsCount",
                  "commentsCount",
                  "songsCount",
                  "user",
                  "createdAt",
                  "updatedAt"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "title": {
                    "type": "string"
                  },
                  "icon": {
                    "type": "string",
                    "description": "The uploaded cover, else the first song's album cover"
                  },
                  "detail": {
                    "type": "string"
                  },
                  "tags": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  },
                  "isPrivate": {
                    "type": "boolean"
                  },
                  "kind": {
                    "type": "string",
                    "enum": [
                      "sheet",
                      "likes"
                    ]
                  },
                  "clicksCount": {
                    "type": "integer"
                  },
                  "collectsCount": {
                    "type": "integer"
                  },
                  "commentsCount": {
                    "type": "integer"
                  },
                  "songsCount": {
                    "type": "integer"
                  },
                  "user": {
                    "$ref": "#/components/schemas/UserSummary"
                  },
                  "collected": {
                    "type": "boolean",
                    "description": "Whether the signed-in viewer collected it; absent when nobody is signed in"
                  },
                  "songs": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Song"
                    },
                    "description": "On sheet detail only"
                  },
                  "createdAt": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "updatedAt": {
                    "type": "string",
                    "format": "date-time"
                  }
                }
              },
              "PlayedSong": {
                "type": "object",
                "required": [
                  "song",
                  "playsCount",
                  "lastPlayedAt"
                ],
                "properties": {
                  "song": {
                    "$ref": "#/components/schemas/Song"
                  },
                  "playsCount": {
                    "type": "integer"
                  },
                  "lastPlayedAt": {
                    "type": "string",
                    "format": "date-time"
                  }
                }
              },
              "PlayQueue": {
                "type": "object",
                "required": [
                  "songIds",
                  "position",
                  "loopMode",
                  "version"
                ],
                "properties": {
                  "songIds": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  },
                  "currentIndex": {
                    "type": "integer"
                  },
                  "position": {
                    "type": "integer"
                  },
                  "loopMode": {
                    "type": "string",
                    "enum": [
                      "list",
                      "single",
                      "shuffle"
                    ]
                  },
                  "version": {
                    "type": "integer"
                  },
                  "updatedAt": {
                    "type": "string",
                    "format": "date-time"
                  }
                }
              },
              "StoredFile": {
                "type": "object",
                "required": ["id", "uri", "icon", "mime", "width", "height", "size"],
                "properties": {
                  "id": {"type": "string", "description": "SHA-256 of the uploaded bytes, 64 lowercase hex digits"},
                  "uri": {"type": "string", "description": "The stored picture, relative to the server root: v1/files/<id>.jpg or .png"},
                  "icon": {"type": "string", "description": "Its thumbnail: v1/files/<id>.thumb.jpg or .png"},
                  "mime": {"type": "string", "enum": ["image/jpeg", "image/png"]},
                  "width": {"type": "integer"},
                  "height": {"type": "integer"},
                  "size": {"type": "integer", "description": "Bytes of the stored picture"}
                }
              },
              "User": {
                "type": "object",
                "required": ["id", "nickname", "gender", "followingsCount", "followersCount", "createdAt", "updatedAt"],
                "properties": {
                  "id": {"type": "string"},
                  "nickname": {"type": "string"},
                  "icon": {"type": "string", "nullable": true, "description": "Avatar path relative to the server root"},
                  "description": {"type": "string", "nullable": true},
                  "gender": {"type": "integer", "enum": [0, 10, 20], "description": "0 unknown, 10 male, 20 female"},
                  "birthday": {"type": "string", "format": "date", "nullable": true},
                  "province": {"type": "string", "nullable": true},
                  "city": {"type": "string", "nullable": true},
                  "area": {"type": "string", "nullable": true},
                  "followingsCount": {"type": "integer"},
                  "following": {"type": "boolean", "description": "Whether the signed-in viewer follows this user; absent for oneself and for nobody signed in"},
                  "followersCount": {"type": "integer"},
                  "phone": {"type": "string", "nullable": true, "description": "Only for the user themselves and in the administrators' list"},
                  "email": {"type": "string", "nullable": true, "description": "Only for the user themselves and in the administrators' list"},
                  "role": {"type": "string", "enum": ["user", "admin"], "description": "Only for the user themselves and in the administrators' list"},
                  "disabled": {"type": "boolean", "description": "Only for the user themselves and in the administrators' list"},
                  "createdAt": {"type": "string", "format": "date-time"},
                  "updatedAt": {"type": "string", "format": "date-time"}
                }
              },
              "LoginResult": {
                "type": "object",
                "required": ["userId", "session", "chatToken"],
                "properties": {
                  "userId": {"type": "string"},
                  "session": {
                    "type": "string",
                    "description": "256-bit token as 64 hex digits; send as Authorization: <token> or Bearer <token>"
                  },
                  "chatToken": {"type": "string"}
                }
              },
              "DeviceSession": {
                "type": "object",
                "required": ["id", "current", "lastSeenAt", "expiresAt", "createdAt", "updatedAt"],
                "properties": {
                  "id": {"type": "string"},
                  "device": {"type": "string", "nullable": true},
                  "userAgent": {"type": "string", "nullable": true},
                  "address": {"type": "string", "nullable": true},
                  "current": {"type": "boolean"},
                  "lastSeenAt": {"type": "string", "format": "date-time"},
                  "expiresAt": {"type": "string", "format": "date-time"},
                  "createdAt": {"type": "string", "format": "date-time"},
                  "updatedAt": {"type": "string", "format": "date-time"}
                }
              },
              "CodeSent": {
                "type": "object",
                "required": ["expiresIn", "resendAfter"],
                "properties": {
                  "expiresIn": {"type": "integer", "description": "Seconds"},
                  "resendAfter": {"type": "integer", "description": "Seconds"}
                }
              },
              "OutboxMessage": {
                "type": "object",
                "required": ["id", "channel", "target", "purpose", "text", "createdAt", "updatedAt"],
                "properties": {
                  "id": {"type": "string"},
                  "channel": {"type": "string", "enum": ["sms", "email"]},
                  "target": {"type": "string"},
                  "purpose": {"type": "string", "enum": ["login", "reset", "register"]},
                  "text": {"type": "string"},
                  "createdAt": {"type": "string", "format": "date-time"},
                  "updatedAt": {"type": "string", "format": "date-time"}
                }
              },
              "Error": {
                "type": "object",
                "required": ["status", "message"],
                "properties": {
                  "status": {"type": "integer", "description": "Non-zero API status code"},
                  "message": {"type": "string", "description": "A sentence a person can act on"}
                }
              },
              "ServerInfo": {
                "type": "object",
                "required": ["name", "version", "apiVersion"],
                "properties": {"name": {"type": "string"}, "version": {"type": "string"}, "apiVersion": {"type": "string"}}
              },
              "ArtistSummary": {
                "type": "object",
                "required": ["id", "name"],
                "properties": {"id": {"type": "string"}, "name": {"type": "string"}}
              },
              "Song": {
                "type": "object",
                "required": [
                  "id",
                  "title",
                  "uri",
                  "style",
                  "artists",
                  "genres",
                  "duration",
                  "format",
                  "bitRate",
                  "sampleRate",
                  "channels",
                  "clicksCount",
                  "commentsCount",
                  "playsCount",
                  "createdAt",
                  "updatedAt"
                ],
                "properties": {
                  "id": {"type": "string"},
                  "title": {"type": "string"},
                  "icon": {"type": "string", "nullable": true, "description": "Cover path relative to the server root"},
                  "uri": {"type": "string", "description": "Stream path relative to the server root"},
                  "style": {"type": "integer", "description": "Lyric format: 10 KSC, otherwise LRC"},
                  "lyric": {"type": "string", "nullable": true, "description": "Raw lyric text (song detail only)"},
                  "singer": {
                    "type": "object",
                    "nullable": true,
                    "properties": {"id": {"type": "string"}, "nickname": {"type": "string"}, "icon": {"type": "string", "nullable": true}}
                  },
                  "artists": {"type": "array", "items": {"$ref": "#/components/schemas/ArtistSummary"}},
                  "album": {
                    "type": "object",
                    "nullable": true,
                    "properties": {"id": {"type": "string"}, "title": {"type": "string"}, "icon": {"type": "string", "nullable": true}}
                  },
                  "genres": {"type": "array", "items": {"type": "string"}},
                  "trackNumber": {"type": "integer", "nullable": true},
                  "discNumber": {"type": "integer", "nullable": true},
                  "year": {"type": "integer", "nullable": true},
                  "duration": {"type": "integer", "description": "Milliseconds"},
                  "format": {"type": "string"},
                  "bitRate": {"type": "integer", "description": "kbit/s"},
                  "sampleRate": {"type": "integer"},
                  "channels": {"type": "integer"},
                  "clicksCount": {"type": "integer"},
                  "commentsCount": {"type": "integer"},
                  "playsCount": {"type": "integer"},
                  "createdAt": {"type": "string", "format": "date-time"},
                  "updatedAt": {"type": "string", "format": "date-time"}
                }
              },
              "Album": {
                "type": "object",
                "required": ["id", "title", "isCompilation", "songsCount", "duration", "createdAt", "updatedAt"],
                "properties": {
                  "id": {"type": "string"},
                  "title": {"type": "string"},
                  "icon": {"type": "string", "nullable": true},
                  "artist": {"allOf": [{"$ref": "#/components/schemas/ArtistSummary"}], "nullable": true},
                  "year": {"type": "integer", "nullable": true},
                  "isCompilation": {"type": "boolean"},
                  "songsCount": {"type": "integer"},
                  "duration": {"type": "integer"},
                  "createdAt": {"type": "string", "format": "date-time"},
                  "updatedAt": {"type": "string", "format": "date-time"},
                  "songs": {"type": "array", "items": {"$ref": "#/components/schemas/Song"}}
                }
              },
              "Artist": {
                "type": "object",
                "required": ["id", "name", "songsCount", "albumsCount", "createdAt", "updatedAt"],
                "properties": {
                  "id": {"type": "string"},
                  "name": {"type": "string"},
                  "icon": {"type": "string", "nullable": true},
                  "songsCount": {"type": "integer"},
                  "albumsCount": {"type": "integer"},
                  "createdAt": {"type": "string", "format": "date-time"},
                  "updatedAt": {"type": "string", "format": "date-time"},
                  "albums": {"type": "array", "items": {"$ref": "#/components/schemas/Album"}},
                  "songs": {"type": "array", "items": {"$ref": "#/components/schemas/Song"}}
                }
              },
              "Genre": {
                "type": "object",
                "required": ["id", "name", "songsCount"],
                "properties": {"id": {"type": "string"}, "name": {"type": "string"}, "songsCount": {"type": "integer"}}
              },
              "LyricWord": {
                "type": "object",
                "required": ["start", "duration", "text"],
                "properties": {
                  "start": {"type": "integer", "description": "ms"},
                  "duration": {"type": "integer", "description": "ms"},
                  "text": {"type": "string"}
                }
              },
              "LyricLine": {
                "type": "object",
                "required": ["start", "end", "text", "words"],
                "properties": {
                  "start": {"type": "integer"},
                  "end": {"type": "integer"},
                  "text": {"type": "string"},
                  "words": {"type": "array", "items": {"$ref": "#/components/schemas/LyricWord"}}
                }
              },
              "Lyric": {
                "type": "object",
                "required": ["songId", "style", "format", "raw", "tags", "lines", "issues"],
                "properties": {
                  "songId": {"type": "string"},
                  "style": {"type": "integer"},
                  "format": {"type": "string", "enum": ["lrc", "ksc"]},
                  "raw": {"type": "string"},
                  "tags": {"type": "object", "additionalProperties": {"type": "string"}},
                  "lines": {"type": "array", "items": {"$ref": "#/components/schemas/LyricLine"}},
                  "issues": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"line": {"type": "integer"}, "reason": {"type": "string"}}}
                  }
                }
              },
              "SearchResults": {
                "type": "object",
                "required": ["songs", "albums", "artists"],
                "properties": {
                  "songs": {"type": "array", "items": {"$ref": "#/components/schemas/Song"}},
                  "albums": {"type": "array", "items": {"$ref": "#/components/schemas/Album"}},
                  "artists": {"type": "array", "items": {"$ref": "#/components/schemas/Artist"}}
                }
              },
              "Suggestion": {
                "type": "object",
                "required": ["title", "type", "id"],
                "properties": {
                  "title": {"type": "string"},
                  "type": {"type": "string", "enum": ["song", "album", "artist"]},
                  "id": {"type": "string"}
                }
              },
              "ScanReport": {
                "type": "object",
                "properties": {
                  "id": {"type": "string"},
                  "state": {"type": "string"},
                  "startedAt": {"type": "string", "format": "date-time"},
                  "finishedAt": {"type": "string", "format": "date-time"},
                  "filesSeen": {"type": "integer"},
                  "added": {"type": "integer"},
                  "updated": {"type": "integer"},
                  "moved": {"type": "integer"},
                  "removed": {"type": "integer"},
                  "unchanged": {"type": "integer"},
                  "failed": {"type": "integer"},
                  "issues": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"path": {"type": "string"}, "reason": {"type": "string"}}}
                  }
                }
              },
              "ScanStatus": {
                "type": "object",
                "required": ["running", "folders"],
                "properties": {
                  "running": {"type": "boolean"},
                  "folders": {"type": "array", "items": {"type": "string"}},
                  "progress": {
                    "type": "object",
                    "nullable": true,
                    "properties": {
                      "phase": {"type": "string"},
                      "filesSeen": {"type": "integer"},
                      "toRead": {"type": "integer"},
                      "read": {"type": "integer"}
                    }
                  },
                  "lastReport": {"allOf": [{"$ref": "#/components/schemas/ScanReport"}], "nullable": true}
                }
              },
              "Ok": {
                "type": "object",
                "required": ["status", "data"],
                "properties": {"status": {"type": "integer", "enum": [0]}}
              },
              "PageInfo": {
                "type": "object",
                "required": ["total", "pages", "size", "page", "data"],
                "properties": {
                  "total": {"type": "integer"},
                  "pages": {"type": "integer"},
                  "size": {"type": "integer"},
                  "page": {"type": "integer"},
                  "next": {"type": "integer", "nullable": true}
                }
              }
            },
            "parameters": {
              "Page": {
                "name": "page",
                "in": "query",
                "required": false,
                "description": "Page number from 1",
                "schema": {"type": "integer", "minimum": 1, "default": 1}
              },
              "Size": {
                "name": "size",
                "in": "query",
                "required": false,
                "description": "Items per page",
                "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}
              },
              "Sort": {
                "name": "sort",
                "in": "query",
                "required": false,
                "description": "Order: name, year, recently added, most played, recently played",
                "schema": {"type": "string", "enum": ["name", "year", "recent", "plays", "played"], "default": "name"}
              },
              "Id": {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}, "description": "The id"}
            }
          }
        }
        """#
}
