//! Sargon's own UCI front end ([`Uci`]) as the engine of a UCI client in this process:
//! `sargon play` and the tests talk to it as to any other UCI engine, without a process.
//! Here, not in `sargon_engines::uci_client`, so that the client does not import the engine side
//! (which imports the engines, which import the client).

use std::io::Write;

use sargon_engines::uci_client::{ClientError, InProcess, UciClient};

use super::{EngineFactory, Settings, Uci};

impl<W: Write + Send + 'static> InProcess for Uci<W> {
    fn handle_line(&mut self, line: &str) -> bool {
        Uci::handle_line(self, line)
    }
}

/// Sargon's own UCI front end in this process, with `settings`, engines made by
/// `factory`, as a client's engine; the handshake is done.
pub fn client_in_process(
    factory: EngineFactory,
    settings: Settings,
) -> Result<UciClient, ClientError> {
    UciClient::in_process_with(|sink| Box::new(Uci::new(factory, sink, settings)))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use shakmaty::{Chess, Position};

    use super::*;
    use sargon_engines::uci_client::{EngineScore, Limit};

    #[test]
    fn sargon_in_process_answers_go() {
        let factory: EngineFactory = Box::new(|_| Ok(Box::new(sargon_port::Port::new())));
        let settings = Settings {
            fixed_depth: 2,
            book: false,
            ..Settings::default()
        };
        let mut client = client_in_process(factory, settings).unwrap();
        assert!(
            client.name().starts_with("Sargon 1978"),
            "{}",
            client.name()
        );
        assert!(client.options().iter().any(|o| o == "FixedDepth"));
        client.new_game().unwrap();
        let start = Chess::default();
        let reply = client
            .go(
                &start,
                &[],
                &start,
                &Limit::default(),
                Duration::from_secs(60),
            )
            .unwrap();
        assert_eq!(reply.depth, Some(2));
        assert!(matches!(reply.score, Some(EngineScore::Cp(_))));
        assert!(Chess::default().is_legal(reply.best));
        let err = client.set_option("Hash", "16").unwrap_err().to_string();
        assert!(err.contains("no option `Hash`"), "{err}");
        client.set_option("ownbook", "true").unwrap();
    }
}
