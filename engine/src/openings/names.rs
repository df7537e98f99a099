//! The table of named openings: one line each, `(name, other names, moves)`.
//!
//! Every line is written from `f5`, in lower case, as players write them; a game begun on `d3`,
//! `c4` or `e6` is recognised by symmetry. Lines in the Diagonal family are written with `f4`
//! as Black's second move (`f5 f6 e6 f4 …`); the mirror image `f5 f6 e6 d6 …` that some lists
//! use reaches the same positions.
//!
//! The names and lines are the ones commonly documented for Othello: Robert Gatliff's opening
//! catalogue as spread by WZebra, NBoard and many opening pages (most lines, marked *G*), and
//! the Japanese opening names (*J*) where the English lists have no name for a well-known line.
//! Where sources disagree the choice is noted on the line.

/// `(name, other names, moves from the start)`.
pub(super) type Line = (&'static str, &'static [&'static str], &'static str);

/// The named openings, grouped by Black's second move, each line after the line it extends.
#[rustfmt::skip]
pub(super) const LINES: &[Line] = &[
    // The three replies to the first move.
    ("Perpendicular", &[], "f5 d6"),                                                   // G
    ("Diagonal", &[], "f5 f6"),                                                        // G
    ("Parallel", &[], "f5 f4"),                                                        // G

    // Perpendicular: the Tiger, 3 c3.
    ("Tiger", &[], "f5 d6 c3 d3 c4"),                                                  // G; Japanese tora
    ("Aubrey", &["Tanaka"], "f5 d6 c3 d3 c4 b3"),                                      // G
    ("Aubrey (Feldborg Continuation)", &[], "f5 d6 c3 d3 c4 b3 d2 f4"),                // G (later lists)
    ("Brightwell", &[], "f5 d6 c3 d3 c4 f4 e3"),                                       // G
    ("Leader's Tiger", &[], "f5 d6 c3 d3 c4 f4 e6"),                                   // G
    ("Rose-Bill", &[], "f5 d6 c3 d3 c4 f4 c5 b3 c2"),                                  // G
    ("Nicolet", &[], "f5 d6 c3 d3 c4 f4 c5 b3 c2 e3"),                                 // G (older lists only)
    ("Central Rose-Bill", &["Dead Draw"], "f5 d6 c3 d3 c4 f4 c5 b3 c2 b4"),            // G
    ("Tamenori", &[], "f5 d6 c3 d3 c4 f4 c5 b3 c2 e6"),                                // G
    ("Ishii", &[], "f5 d6 c3 d3 c4 f4 c5 b4 b5 c6 f3 e6 e3"),                          // G
    ("Mainline Tiger", &[], "f5 d6 c3 d3 c4 f4 c5 b4 b5 c6 f3 e6 e3 g6 f6 g5 d7 g3"),  // G
    ("Stephenson", &[], "f5 d6 c3 d3 c4 f4 f6"),                                       // G
    ("Kung", &[], "f5 d6 c3 d3 c4 f4 f6 b4"),                                          // G
    ("No-Kung", &[], "f5 d6 c3 d3 c4 f4 f6 g5"),                                       // G
    ("No-Kung (Continuation)", &[], "f5 d6 c3 d3 c4 f4 f6 g5 e3 f3 g4 h3 g3 f2"),      // G
    ("Comp'Oth", &[], "f5 d6 c3 d3 c4 f4 f6 f3"),                                      // G
    ("Lightning Bolt", &[], "f5 d6 c3 d3 c4 f4 f6 f3 e3"),                             // G
    ("F.A.T. Draw", &[], "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 g6 f8 f7 g5 h6 h4 g4 h3 h5 h7"), // G
    // Some lists call 3 c3 4 g5 the Ganglion; the catalogue's later versions call it the Bent
    // Ganglion and give the Ganglion's name to 3 c4 4 g5 (the No-Cat), as here.
    ("Bent Ganglion", &[], "f5 d6 c3 g5"),                                             // G

    // Perpendicular: 3 c4.
    ("Ganglion", &["No-Cat"], "f5 d6 c4 g5"),                                          // G
    ("Swallow", &[], "f5 d6 c4 g5 c6"),                                                // G; Japanese tsubame
    ("No-Cat (Continuation)", &[], "f5 d6 c4 g5 c6 c5 d7 d3 b4 c3 e3 f3"),             // G
    ("Cat", &[], "f5 d6 c4 d3 c5"),                                                    // G; Japanese neko
    ("Sakaguchi", &[], "f5 d6 c4 d3 c5 f4 e3 f3 c2 c6"),                               // G
    ("Berner", &[], "f5 d6 c4 d3 c5 f4 e3 f3 c2 b4 b3"),                               // G
    ("Italian", &[], "f5 d6 c4 d3 e6"),                                                // G

    // Perpendicular: the Rabbit family, 3 c5 4 f4.
    ("Rabbit", &["Usagi"], "f5 d6 c5 f4 e3"),                                          // J: usagi, one of the three main Japanese openings
    ("Horse", &[], "f5 d6 c5 f4 d3"),                                                  // G; Japanese uma
    ("Mimura", &[], "f5 d6 c5 f4 e3 d3"),                                              // G
    ("Shaman", &["Danish"], "f5 d6 c5 f4 e3 c6 f3"),                                   // G
    ("Inoue", &[], "f5 d6 c5 f4 e3 c6 e6"),                                            // G
    ("Iago", &[], "f5 d6 c5 f4 e3 c6 e6 f6"),                                          // G
    ("Bhagat", &[], "f5 d6 c5 f4 e3 c6 d7"),                                           // G
    ("Ralle", &[], "f5 d6 c5 f4 e3 c6 d3 f3"),                                         // G
    ("Rose", &[], "f5 d6 c5 f4 e3 c6 d3 f6 e6 d7"),                                    // G
    ("Greenberg", &["Dawg"], "f5 d6 c5 f4 e3 c6 d3 f6 e6 d7 e7"),                      // G
    ("Flat", &[], "f5 d6 c5 f4 e3 c6 d3 f6 e6 d7 g4"),                                 // G
    ("Rotating Flat", &[], "f5 d6 c5 f4 e3 c6 d3 f6 e6 d7 g4 c4"),                     // G
    ("Murakami Variation", &[], "f5 d6 c5 f4 e3 c6 d3 f6 e6 d7 g4 c4 g6"),             // G
    ("Rotating Flat (Kling Continuation)", &[], "f5 d6 c5 f4 e3 c6 d3 f6 e6 d7 g4 c4 g5 c3 f7 d2 e7 f2"), // G
    ("Rose-Birth", &[], "f5 d6 c5 f4 e3 c6 d3 f6 e6 d7 g3 c4"),                        // G
    ("Rose-Birdie", &["Rose-Tamenori"], "f5 d6 c5 f4 e3 c6 d3 f6 e6 d7 g3 c4 b4"),     // G
    ("Rose-Tamenori-Kling", &[], "f5 d6 c5 f4 e3 c6 d3 f6 e6 d7 g3 c4 b4 c3"),         // G
    ("Brightstein", &[], "f5 d6 c5 f4 e3 c6 d3 f6 e6 d7 g3 c4 g5 c3 b4 e2"),           // G

    // Diagonal: the wings, 3 d3 and 3 c4.
    ("Wing Variation", &[], "f5 f6 d3 f4"),                                            // G
    ("Semi-Wing Variation", &[], "f5 f6 c4 f4"),                                       // G

    // Diagonal: the Cow family, 3 e6 4 f4 5 e3.
    ("Cow", &["Ushi"], "f5 f6 e6 f4 e3"),                                              // G; J: ushi, one of the three main Japanese openings
    ("Chimney", &[], "f5 f6 e6 f4 e3 d6"),                                             // G
    ("Bat", &["Cow Bat", "Cambridge"], "f5 f6 e6 f4 e3 c5 g5"),                        // G; Japanese koumori
    ("Bat (Piau Continuation 1)", &["Melnikov"], "f5 f6 e6 f4 e3 c5 g5 g3 g4 f3 c4"),  // G
    ("Bat (Piau Continuation 2)", &[], "f5 f6 e6 f4 e3 c5 g5 g3 g4 f3 g6"),            // G
    ("Bat (Kling Continuation)", &[], "f5 f6 e6 f4 e3 c5 g5 f3 g4 g6 g3 d6 f7 h5 h4 h3 e7"), // G
    ("Bat (Kling Alternative)", &[], "f5 f6 e6 f4 e3 c5 g5 d6 g6"),                    // G
    ("Rose-v-Toth", &[], "f5 f6 e6 f4 e3 c5 c4"),                                      // G
    ("Tanida", &[], "f5 f6 e6 f4 e3 c5 c4 e7"),                                        // G
    ("Aircraft", &["Feldborg"], "f5 f6 e6 f4 e3 c5 c4 e7 g4"),                         // G
    ("Sailboat", &[], "f5 f6 e6 f4 e3 c5 c4 e7 b5 e2"),                                // G; Japanese "yacht"
    ("Landau", &[], "f5 f6 e6 f4 e3 c5 c4 d3 c3"),                                     // G
    ("Maruoka", &[], "f5 f6 e6 f4 e3 c5 c4 d3 f3 e2"),                                 // G

    // Diagonal: the Buffalo, 5 c3.
    ("Buffalo", &["Kenichi Variation"], "f5 f6 e6 f4 c3"),                             // G
    // The Japanese lists carry the Hokuriku Buffalo one ply further (7 d3).
    ("Hokuriku Buffalo", &[], "f5 f6 e6 f4 c3 c4"),                                    // G
    ("Maruoka Buffalo", &[], "f5 f6 e6 f4 c3 d7 f3"),                                  // G
    ("Tanida Buffalo", &[], "f5 f6 e6 f4 c3 d6 f3 c4 c5 b4"),                          // G

    // Diagonal: the Heath, 5 g5.
    ("Heath", &["Tobidashi"], "f5 f6 e6 f4 g5"),                                       // G
    ("Heath-Chimney", &["Mass-Turning"], "f5 f6 e6 f4 g5 d6"),                         // G
    ("Heath-Bat", &[], "f5 f6 e6 f4 g5 e7 e3"),                                        // G
    ("Iwasaki Variation", &[], "f5 f6 e6 f4 g5 e7 d7"),                                // G
    ("Mimura Variation II", &[], "f5 f6 e6 f4 g5 e7 f7 c5 e3 f3 c4 d3 c2"),            // G

    // Diagonal: the Snake, 5 g6.
    ("Snake", &["Peasant"], "f5 f6 e6 f4 g6"),                                         // G; Japanese hebi
    ("Lysons", &[], "f5 f6 e6 f4 g6 c6"),                                              // G
    ("Pyramid", &["Checkerboarding Peasant"], "f5 f6 e6 f4 g6 c5 g4 g5 f3 e3 c4"),     // G

    // Diagonal: the other fifth moves.
    ("Raccoon Dog", &["Tanuki"], "f5 f6 e6 f4 g4"),                                    // G; Japanese tanuki
    ("Rocket", &[], "f5 f6 e6 f4 g3"),                                                 // G
    ("Lollipop", &[], "f5 f6 e6 f4 g3 d6"),                                            // G
    ("Hamilton", &[], "f5 f6 e6 f4 g3 f3 g4"),                                         // G
    ("X-square Opening", &[], "f5 f6 e6 f4 g7"),                                       // G
];
