/// Tonearm's documents of its WireMock-compatible admin API, answered where WireMock 2.35.1 answers its
/// own: `GET /__admin/docs` (an HTML index), `GET /__admin/docs/swagger` (an OpenAPI 3.0 document) and
/// `GET /__admin/swagger-ui` (a page pointing to the document: Tonearm ships no Swagger UI).
///
/// The OpenAPI document is written for Tonearm from docs/server.md's table of endpoints, not taken from
/// WireMock's; `WireMockAdminDocumentTests` checks that the router answers every path and method it
/// lists.
enum WireMockAdminDocument {
    /// `GET /__admin/docs/swagger`.
    static let openAPI = #"""
        {
         "openapi": "3.0.3",
         "info": {
          "title": "Tonearm's WireMock-compatible admin API",
          "version": "1",
          "description": "The admin API tonearm serve answers under /__admin: the part of WireMock 2.35's API its Java and Python clients use, with WireMock's field names, shapes and status codes. docs/server.md, \"Coming from WireMock\", says what each call does and what differs from WireMock."
         },
         "paths": {
          "/__admin/mappings": {
           "get": {
            "summary": "List the stub mappings, newest first (limit, offset)",
            "parameters": [
             {
              "name": "limit",
              "in": "query",
              "schema": {
               "type": "integer",
               "minimum": 0
              }
             },
             {
              "name": "offset",
              "in": "query",
              "schema": {
               "type": "integer",
               "minimum": 0
              }
             }
            ],
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/StubMappings"
                }
               }
              }
             }
            }
           },
           "post": {
            "summary": "Add a stub mapping; answered with it, its id filled in",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/StubMapping"
               }
              }
             }
            },
            "responses": {
             "201": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/StubMapping"
                }
               }
              }
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           },
           "delete": {
            "summary": "Remove every stub mapping (and the files of persistent ones)",
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/mappings/{id}": {
           "get": {
            "summary": "One stub mapping",
            "parameters": [
             {
              "name": "id",
              "in": "path",
              "required": true,
              "schema": {
               "type": "string",
               "format": "uuid"
              }
             }
            ],
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/StubMapping"
                }
               }
              }
             },
             "404": {
              "description": "No mapping has this id"
             }
            }
           },
           "put": {
            "summary": "Replace the stub mapping with this id",
            "parameters": [
             {
              "name": "id",
              "in": "path",
              "required": true,
              "schema": {
               "type": "string",
               "format": "uuid"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/StubMapping"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/StubMapping"
                }
               }
              }
             },
             "404": {
              "description": "No mapping has this id"
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           },
           "delete": {
            "summary": "Remove the stub mapping with this id",
            "parameters": [
             {
              "name": "id",
              "in": "path",
              "required": true,
              "schema": {
               "type": "string",
               "format": "uuid"
              }
             }
            ],
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "404": {
              "description": "No mapping has this id"
             }
            }
           }
          },
          "/__admin/mappings/reset": {
           "post": {
            "summary": "Back to the root directory's mappings, with an empty journal",
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/mappings/save": {
           "post": {
            "summary": "Write the mappings not yet saved to the root directory's mappings folder",
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/mappings/remove-by-metadata": {
           "post": {
            "summary": "Remove the mappings whose metadata matches a pattern",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/ContentPattern"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/mappings/find-by-metadata": {
           "post": {
            "summary": "The mappings whose metadata matches a pattern",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/ContentPattern"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/StubMappings"
                }
               }
              }
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/mappings/new": {
           "post": {
            "summary": "Add a stub mapping (WireMock 2.x's route)",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/StubMapping"
               }
              }
             }
            },
            "responses": {
             "201": {
              "description": "Done"
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/mappings/edit": {
           "post": {
            "summary": "Replace the stub mapping the body's id names (WireMock 2.x's route)",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/StubMapping"
               }
              }
             }
            },
            "responses": {
             "204": {
              "description": "Done"
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/mappings/remove": {
           "post": {
            "summary": "Remove the mapping the body's id names, else those whose request pattern equals the body's",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/StubMapping"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/mappings/import": {
           "post": {
            "summary": "Add many mappings, all or nothing",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/StubMappingImport"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/reset": {
           "post": {
            "summary": "Mappings back to the defaults, the journal cleared, every scenario back in Started",
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/requests": {
           "get": {
            "summary": "The journal's serve events, newest first (limit, since, unmatched, matchingStub)",
            "parameters": [
             {
              "name": "limit",
              "in": "query",
              "schema": {
               "type": "integer",
               "minimum": 0
              }
             },
             {
              "name": "since",
              "in": "query",
              "schema": {
               "type": "string",
               "format": "date-time"
              }
             },
             {
              "name": "unmatched",
              "in": "query",
              "schema": {
               "type": "boolean"
              }
             },
             {
              "name": "matchingStub",
              "in": "query",
              "schema": {
               "type": "string",
               "format": "uuid"
              }
             }
            ],
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/ServeEvents"
                }
               }
              }
             },
             "400": {
              "description": "since is not an ISO 8601 date-time, or matchingStub is not a UUID",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           },
           "delete": {
            "summary": "Clear the journal",
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/requests/{id}": {
           "get": {
            "summary": "One serve event",
            "parameters": [
             {
              "name": "id",
              "in": "path",
              "required": true,
              "schema": {
               "type": "string",
               "format": "uuid"
              }
             }
            ],
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/ServeEvent"
                }
               }
              }
             },
             "404": {
              "description": "No serve event has this id"
             }
            }
           },
           "delete": {
            "summary": "Forget one serve event",
            "parameters": [
             {
              "name": "id",
              "in": "path",
              "required": true,
              "schema": {
               "type": "string",
               "format": "uuid"
              }
             }
            ],
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/requests/reset": {
           "post": {
            "summary": "Clear the journal",
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/requests/remove": {
           "post": {
            "summary": "Forget the serve events a request pattern matches; answered with them",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/RequestPattern"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/requests/remove-by-metadata": {
           "post": {
            "summary": "Forget the serve events of the mappings whose metadata matches",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/ContentPattern"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/requests/count": {
           "post": {
            "summary": "How many journaled requests a request pattern matches",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/RequestPattern"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/requests/find": {
           "post": {
            "summary": "The journaled requests a request pattern matches",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/RequestPattern"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/requests/unmatched": {
           "get": {
            "summary": "The journaled requests no mapping answered",
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/requests/unmatched/near-misses": {
           "get": {
            "summary": "The mappings closest to each unmatched request",
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/near-misses/request": {
           "post": {
            "summary": "The mappings closest to a request",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/LoggedRequest"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/near-misses/request-pattern": {
           "post": {
            "summary": "The journaled requests closest to a request pattern",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/RequestPattern"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/scenarios": {
           "get": {
            "summary": "Every scenario: its state, possible states and mappings",
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/scenarios/{name}/state": {
           "put": {
            "summary": "Put a scenario in a state; an empty body puts it back in Started",
            "parameters": [
             {
              "name": "name",
              "in": "path",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/ScenarioState"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "404": {
              "description": "No mapping takes part in this scenario"
             },
             "422": {
              "description": "No mapping of the scenario names this state",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/scenarios/reset": {
           "post": {
            "summary": "Every scenario back in Started",
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/settings": {
           "get": {
            "summary": "The global settings (fixedDelay, delayDistribution, extended)",
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           },
           "post": {
            "summary": "Replace the global settings",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/GlobalSettings"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           },
           "put": {
            "summary": "Replace the global settings",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/GlobalSettings"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/health": {
           "get": {
            "summary": "Whether the server is up",
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/files": {
           "get": {
            "summary": "The body files under the root directory's __files folder",
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/files/{name}": {
           "put": {
            "summary": "Write a body file; answered with its bytes in base64",
            "parameters": [
             {
              "name": "name",
              "in": "path",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/octet-stream": {
               "schema": {
                "type": "string",
                "format": "binary"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           },
           "delete": {
            "summary": "Remove a body file",
            "parameters": [
             {
              "name": "name",
              "in": "path",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "404": {
              "description": "No such body file"
             }
            }
           }
          },
          "/__admin/recordings/status": {
           "get": {
            "summary": "NeverStarted, Recording or Stopped",
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/recordings/start": {
           "post": {
            "summary": "Record what a target base URL answers",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/RecordSpec"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/recordings/stop": {
           "post": {
            "summary": "Stop recording; answered with the mappings made",
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "400": {
              "description": "Not currently recording",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/recordings/snapshot": {
           "post": {
            "summary": "Make mappings of the journaled exchanges a proxy mapping answered",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/RecordSpec"
               }
              }
             }
            },
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "422": {
              "description": "Refused: what and where in the errors document",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Errors"
                }
               }
              }
             }
            }
           }
          },
          "/__admin/docs": {
           "get": {
            "summary": "This API's documents, as an HTML index",
            "responses": {
             "200": {
              "description": "An HTML page linking to the OpenAPI document",
              "content": {
               "text/html": {}
              }
             }
            }
           }
          },
          "/__admin/docs/swagger": {
           "get": {
            "summary": "This document",
            "responses": {
             "200": {
              "description": "Done",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          }
         },
         "components": {
          "schemas": {
           "StubMapping": {
            "type": "object",
            "description": "A WireMock stub mapping: what it matches (request), what it answers (response), and its id, name, priority, scenario and metadata",
            "additionalProperties": true,
            "properties": {
             "id": {
              "type": "string",
              "format": "uuid"
             },
             "name": {
              "type": "string"
             },
             "priority": {
              "type": "integer"
             },
             "request": {
              "$ref": "#/components/schemas/RequestPattern"
             },
             "response": {
              "type": "object",
              "description": "What the mapping answers: status, headers, body (body, jsonBody, base64Body, bodyFileName), delays, fault, proxyBaseUrl, transformers",
              "additionalProperties": true
             },
             "scenarioName": {
              "type": "string"
             },
             "requiredScenarioState": {
              "type": "string"
             },
             "newScenarioState": {
              "type": "string"
             },
             "persistent": {
              "type": "boolean"
             },
             "metadata": {
              "type": "object",
              "description": "Free-form data about the mapping",
              "additionalProperties": true
             }
            }
           },
           "StubMappings": {
            "type": "object",
            "description": "A page of mappings",
            "additionalProperties": true,
            "properties": {
             "mappings": {
              "type": "array",
              "items": {
               "$ref": "#/components/schemas/StubMapping"
              }
             },
             "meta": {
              "type": "object",
              "description": "The total",
              "additionalProperties": true,
              "properties": {
               "total": {
                "type": "integer"
               }
              }
             }
            }
           },
           "StubMappingImport": {
            "type": "object",
            "description": "Mappings to add together",
            "additionalProperties": true,
            "properties": {
             "mappings": {
              "type": "array",
              "items": {
               "$ref": "#/components/schemas/StubMapping"
              }
             },
             "importOptions": {
              "type": "object",
              "description": "What to do with existing mappings",
              "additionalProperties": true,
              "properties": {
               "duplicatePolicy": {
                "type": "string",
                "enum": [
                 "OVERWRITE",
                 "IGNORE"
                ]
               },
               "deleteAllNotInImport": {
                "type": "boolean"
               }
              }
             }
            }
           },
           "RequestPattern": {
            "type": "object",
            "description": "What requests a mapping answers: method, url/urlPath/urlPattern/urlPathPattern, queryParameters, headers, cookies, basicAuthCredentials, bodyPatterns, multipartPatterns",
            "additionalProperties": true,
            "properties": {
             "method": {
              "type": "string"
             },
             "url": {
              "type": "string"
             },
             "urlPath": {
              "type": "string"
             },
             "urlPattern": {
              "type": "string"
             },
             "urlPathPattern": {
              "type": "string"
             }
            }
           },
           "ContentPattern": {
            "type": "object",
            "description": "A value matcher: matchesJsonPath, equalToJson, equalTo, contains, ...",
            "additionalProperties": true
           },
           "LoggedRequest": {
            "type": "object",
            "description": "A request: url, method, headers, body or bodyAsBase64",
            "additionalProperties": true,
            "properties": {
             "url": {
              "type": "string"
             },
             "method": {
              "type": "string"
             }
            }
           },
           "ServeEvent": {
            "type": "object",
            "description": "One exchange of the journal",
            "additionalProperties": true,
            "properties": {
             "id": {
              "type": "string"
             },
             "request": {
              "type": "object",
              "description": "The request",
              "additionalProperties": true
             },
             "responseDefinition": {
              "type": "object",
              "description": "What answered",
              "additionalProperties": true
             },
             "response": {
              "type": "object",
              "description": "The answer sent",
              "additionalProperties": true
             },
             "wasMatched": {
              "type": "boolean"
             }
            }
           },
           "ServeEvents": {
            "type": "object",
            "description": "Serve events, newest first",
            "additionalProperties": true,
            "properties": {
             "requests": {
              "type": "array",
              "items": {
               "$ref": "#/components/schemas/ServeEvent"
              }
             },
             "meta": {
              "type": "object",
              "description": "The total",
              "additionalProperties": true,
              "properties": {
               "total": {
                "type": "integer"
               }
              }
             },
             "requestJournalDisabled": {
              "type": "boolean"
             }
            }
           },
           "ScenarioState": {
            "type": "object",
            "description": "The state to put a scenario in",
            "additionalProperties": true,
            "properties": {
             "state": {
              "type": "string"
             }
            }
           },
           "GlobalSettings": {
            "type": "object",
            "description": "Settings for every mapping",
            "additionalProperties": true,
            "properties": {
             "fixedDelay": {
              "type": "integer"
             },
             "delayDistribution": {
              "type": "object",
              "description": "A delay drawn per answer: uniform, lognormal or fixed",
              "additionalProperties": true
             },
             "extended": {
              "type": "object",
              "description": "Kept and listed as sent",
              "additionalProperties": true
             }
            }
           },
           "RecordSpec": {
            "type": "object",
            "description": "What to record and how: targetBaseUrl, filters, captureHeaders, requestBodyPattern, extractBodyCriteria, persist, repeatsAsScenarios, outputFormat",
            "additionalProperties": true,
            "properties": {
             "targetBaseUrl": {
              "type": "string"
             }
            }
           },
           "Errors": {
            "type": "object",
            "description": "Why a call was refused",
            "additionalProperties": true,
            "properties": {
             "errors": {
              "type": "array",
              "items": {
               "type": "object",
               "description": "One error",
               "additionalProperties": true,
               "properties": {
                "code": {
                 "type": "integer"
                },
                "title": {
                 "type": "string"
                },
                "detail": {
                 "type": "string"
                },
                "source": {
                 "type": "object",
                 "description": "Where in the body",
                 "additionalProperties": true,
                 "properties": {
                  "pointer": {
                   "type": "string"
                  }
                 }
                }
               }
              }
             }
            }
           }
          }
         }
        }
        """#

    /// `GET /__admin/docs`: links to the document and the page below, as WireMock's index links to its own.
    static let index = """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><title>Tonearm: the WireMock admin API</title></head>
        <body>
        <a href="/__admin/docs/swagger" title="OpenAPI 3.0 document">OpenAPI 3.0 document</a><br>
        <a href="/__admin/swagger-ui/" title="Swagger UI">Swagger UI</a><br>
        </body>
        </html>

        """

    /// `GET /__admin/swagger-ui/`: Tonearm ships no Swagger UI; the page says where the document is,
    /// for a Swagger UI of one's own (or any OpenAPI viewer) to open.
    static let swaggerUI = """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><title>Tonearm: the WireMock admin API</title></head>
        <body>
        <p>Tonearm serves no Swagger UI. Its admin API is described by the OpenAPI 3.0 document at
        <a href="/__admin/docs/swagger">/__admin/docs/swagger</a>; open it in any OpenAPI viewer.</p>
        </body>
        </html>

        """
}
