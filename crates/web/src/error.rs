//! What a request can get wrong, answered as a 4xx with a JSON body `{"error": "..."}` that
//! says what and where; and the extractors that turn axum's own rejections into the same.

use axum::Json;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

/// A refused request: its status and the message the page shows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{status}: {message}")]
pub struct ApiError {
    /// The HTTP status (4xx for the client's mistakes).
    pub status: StatusCode,
    /// What was wrong, in words.
    pub message: String,
}

impl ApiError {
    /// 400: the request does not make sense (a bad variant, spec, move list, path).
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// 404: no such game, file or page.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }

    /// 409: the request does not fit the game's state (not your turn, an agent is thinking,
    /// the game is over, the page is behind).
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            message: message.into(),
        }
    }

    /// 403: refused on purpose (a host or origin that is not this server's).
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::FORBIDDEN,
            message: message.into(),
        }
    }

    /// 422: a well-formed move that the position does not allow.
    pub fn illegal(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: message.into(),
        }
    }

    /// 405: the path exists, but not for this method (a GET of a post-only API).
    pub fn not_allowed(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::METHOD_NOT_ALLOWED,
            message: message.into(),
        }
    }

    /// 429: the server holds as many games, or as much memory, as it keeps.
    pub fn too_many(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::TOO_MANY_REQUESTS,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, Json(body)).into_response()
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        let message = match &rejection {
            JsonRejection::MissingJsonContentType(_) => {
                "the request body must be JSON, sent with `Content-Type: application/json`"
                    .to_string()
            }
            JsonRejection::JsonSyntaxError(error) => {
                format!("malformed JSON: {}", innermost(error))
            }
            JsonRejection::JsonDataError(error) => {
                format!("the JSON does not fit this request: {}", innermost(error))
            }
            JsonRejection::BytesRejection(_)
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE =>
            {
                format!(
                    "the request body is larger than the {} KiB this server reads",
                    crate::BODY_LIMIT / 1024
                )
            }
            other => format!("the request body cannot be read: {}", other.body_text()),
        };
        ApiError {
            status: rejection.status(),
            message,
        }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> ApiError {
        let message = match &rejection {
            QueryRejection::FailedToDeserializeQueryString(error) => {
                format!("bad query string: {}", innermost(error))
            }
            other => format!("bad query string: {}", other.body_text()),
        };
        ApiError::bad(message)
    }
}

/// The message of the deepest source of an error: serde's own words, without axum's wrapping.
fn innermost(error: &dyn std::error::Error) -> String {
    let mut current = error;
    while let Some(source) = current.source() {
        current = source;
    }
    current.to_string()
}

/// A JSON body, refused with an [`ApiError`].
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let Json(value) = Json::<T>::from_request(request, state).await?;
        Ok(Body(value))
    }
}

/// A query string, refused with an [`ApiError`].
pub struct Query<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let axum::extract::Query(value) =
            axum::extract::Query::<T>::from_request_parts(parts, state).await?;
        Ok(Query(value))
    }
}
