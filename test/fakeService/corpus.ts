/** One article of the fake encyclopedia. */
export interface CorpusArticle {
  title: string;
  summary: string;
  /** Markdown-ish body text. */
  content: string;
  url: string;
  /** Structured facts as ordered `[name, value]` pairs (6–12 of them). */
  facts: [string, string][];
  /** Image URLs. */
  media: string[];
}

/** The article URL the fake gives a title: `https://axo.example/wiki/<encoded title with _ for spaces>`. */
export function articleUrl(title: string): string {
  return `https://axo.example/wiki/${encodeURIComponent(title.replace(/ /g, '_'))}`;
}

function mediaUrl(title: string, name: string): string {
  return `https://axo.example/media/${encodeURIComponent(title.replace(/ /g, '_'))}/${name}`;
}

function article(
  title: string,
  summary: string,
  content: string,
  facts: [string, string][],
  media: string[],
): CorpusArticle {
  return { title, summary, content, url: articleUrl(title), facts, media: media.map((m) => mediaUrl(title, m)) };
}

/**
 * The built-in corpus (11 articles). Titles include `/`, `?`, `#`, `&`, parentheses and non-Latin letters,
 * so clients must URL-encode them; fact values carry accents and emoji (some multi-code-point).
 */
export const CORPUS: readonly CorpusArticle[] = [
  article(
    'Alan Turing',
    'Alan Turing was an English mathematician and computer scientist, a founder of theoretical computer science and artificial intelligence.',
    '## Early life\n\nAlan Mathison Turing was born in Maida Vale, London.\n\n## Work\n\nHe formalised *algorithm* and *computation* with the Turing machine, worked on code-breaking at Bletchley Park, and proposed the imitation game, now called the **Turing test**.',
    [
      ['Born', '23 June 1912'],
      ['Birthplace', 'Maida Vale, London 🇬🇧'],
      ['Died', '7 June 1954'],
      ['Fields', 'Mathematics, cryptanalysis, computer science'],
      ['Known for', 'Turing machine, Turing test, Enigma codebreaking'],
      ['Alma mater', "King's College, Cambridge; Princeton University"],
      ['Doctoral advisor', 'Alonzo Church'],
      ['Honours', 'OBE, FRS 🏅'],
    ],
    ['portrait.jpg', 'bombe.jpg'],
  ),
  article(
    'Ada Lovelace',
    'Ada Lovelace was an English mathematician and writer, known for her work on the Analytical Engine, an early mechanical computer.',
    '## Notes\n\nHer notes on the Analytical Engine include what is seen as the first published algorithm meant for a machine.\n\nShe saw that the engine could act on symbols as well as numbers.',
    [
      ['Born', '10 December 1815'],
      ['Birthplace', 'London'],
      ['Died', '27 November 1852'],
      ['Known for', 'Notes on the Analytical Engine'],
      ['Parents', 'Lord Byron, Anne Isabella Milbanke'],
      ['Collaborator', 'Charles Babbage ⚙️'],
    ],
    ['portrait.jpg'],
  ),
  article(
    'Photosynthesis',
    'Photosynthesis is the process by which plants, algae and some bacteria turn light energy into chemical energy stored in sugars.',
    '## Overview\n\nLight is absorbed by chlorophyll. Water is split and oxygen released; carbon dioxide is fixed into sugar in the Calvin cycle.\n\n`6 CO2 + 6 H2O → C6H12O6 + 6 O2`',
    [
      ['Inputs', 'Light, water, carbon dioxide'],
      ['Outputs', 'Glucose, oxygen 🌿'],
      ['Pigment', 'Chlorophyll a and b'],
      ['Location', 'Chloroplasts'],
      ['Stages', 'Light-dependent reactions; Calvin cycle'],
      ['Discovered by', 'Jan Ingenhousz (1779)'],
      ['Efficiency', 'About 3–6 %'],
    ],
    ['leaf.png', 'calvin-cycle.svg'],
  ),
  article(
    'TypeScript',
    'TypeScript is a programming language developed by Microsoft that adds static types to JavaScript.',
    '## Design\n\nTypeScript is a strict syntactic superset of JavaScript and compiles to plain JavaScript.\n\n```ts\nconst greet = (name: string): string => `Hello, ${name}`;\n```',
    [
      ['Paradigm', 'Multi-paradigm: functional, generic, imperative, object-oriented'],
      ['Designed by', 'Anders Hejlsberg'],
      ['Developer', 'Microsoft'],
      ['First appeared', '1 October 2012'],
      ['Typing discipline', 'Duck, gradual, structural'],
      ['License', 'Apache License 2.0'],
      ['Filename extensions', '.ts, .tsx, .mts, .cts'],
      ['Website', 'typescriptlang.org'],
    ],
    ['logo.svg'],
  ),
  article(
    'AC/DC',
    'AC/DC are an Australian rock band formed in Sydney in 1973 by brothers Malcolm and Angus Young.',
    '## History\n\nThe band is known for hard rock with blues roots and for high-voltage live shows.\n\nTheir album *Back in Black* is among the best-selling albums of all time. 🎸',
    [
      ['Origin', 'Sydney, Australia 🇦🇺'],
      ['Genres', 'Hard rock, blues rock, rock and roll'],
      ['Years active', '1973–present'],
      ['Labels', 'Albert, Atlantic, Columbia'],
      ['Founders', 'Malcolm Young, Angus Young'],
      ['Best-selling album', 'Back in Black'],
    ],
    ['band.jpg', 'logo.png'],
  ),
  article(
    'Who? What? (album)',
    'Who? What? is an invented 2009 album by the fictional trio Quand Même, recorded in a café in Marseille.',
    '## Recording\n\nThe album was recorded live in one night. Its songs ask questions and never answer them.\n\n1. "Who?"\n2. "What?"\n3. "Pourquoi pas?"',
    [
      ['Released', '14 février 2009'],
      ['Recorded', 'Café du Port, Marseille'],
      ['Genre', 'Chanson, indie pop'],
      ['Length', '38:12'],
      ['Label', 'Éditions Peut-Être'],
      ['Producer', 'Zoë Lefèvre'],
      ['Rating', '★★★★☆'],
    ],
    ['cover.jpg'],
  ),
  article(
    'C# (language)',
    'C# is a general-purpose, multi-paradigm programming language developed by Microsoft as part of .NET.',
    '## Overview\n\nC# (pronounced *C sharp*) supports static typing, generics, LINQ and async/await.\n\n```csharp\nConsole.WriteLine("Hello, world!");\n```',
    [
      ['Paradigm', 'Structured, imperative, object-oriented, functional'],
      ['Designed by', 'Anders Hejlsberg'],
      ['Developer', 'Microsoft'],
      ['First appeared', '2000'],
      ['Typing discipline', 'Static, dynamic, strong, safe, nominative'],
      ['Platform', '.NET'],
      ['Filename extensions', '.cs, .csx'],
    ],
    ['logo.svg'],
  ),
  article(
    'Tom & Jerry',
    'Tom & Jerry is an American animated series about a cat, Tom, and a mouse, Jerry, created by William Hanna and Joseph Barbera in 1940.',
    '## Premise\n\nTom tries to catch Jerry; Jerry escapes, usually with slapstick results. 🐱🐭\n\nThe shorts won seven Academy Awards.',
    [
      ['Created by', 'William Hanna & Joseph Barbera'],
      ['First short', 'Puss Gets the Boot (1940)'],
      ['Studio', 'MGM cartoon studio'],
      ['Characters', 'Tom 🐱, Jerry 🐭, Spike 🐶'],
      ['Academy Awards', '7'],
      ['Country', 'United States'],
    ],
    ['tom.png', 'jerry.png'],
  ),
  article(
    '東京',
    '東京 (Tokyo) is the capital of Japan and the most populous metropolitan area in the world.',
    '## 概要\n\nTokyo was called Edo until 1868. The metropolis spans 23 special wards and many cities.\n\n東京タワー and 東京スカイツリー are well-known landmarks.',
    [
      ['Country', '日本 (Japan) 🇯🇵'],
      ['Population', 'About 14 million'],
      ['Area', '2,194 km²'],
      ['Former name', '江戸 (Edo)'],
      ['Governor', 'Yuriko Koike'],
      ['Time zone', 'UTC+09:00 (JST)'],
      ['Landmark', '東京スカイツリー 🗼'],
      ['Website', 'metro.tokyo.lg.jp'],
    ],
    ['skyline.jpg', 'shibuya.jpg'],
  ),
  article(
    'Αθήνα',
    'Αθήνα (Athens) is the capital and largest city of Greece, one of the oldest cities in the world.',
    '## Ιστορία\n\nAthens is named after the goddess Athena. The Acropolis and the Parthenon overlook the city.\n\nIt hosted the first modern Olympic Games in 1896.',
    [
      ['Country', 'Ελλάδα (Greece) 🇬🇷'],
      ['Population', 'About 3.1 million (metro)'],
      ['Patron', 'Αθηνά'],
      ['Landmark', 'Ακρόπολη 🏛️'],
      ['Elevation', '70–338 m'],
      ['Time zone', 'UTC+02:00 (EET)'],
      ['Olympics', '1896, 2004'],
    ],
    ['acropolis.jpg'],
  ),
  article(
    'Café Zürich',
    'Café Zürich is an invented coffee house on the Limmat in Zürich, known for its Bündner Nusstorte and crème brûlée.',
    '## Menu\n\n- Café crème ☕\n- Bündner Nusstorte\n- Crème brûlée\n\nThe house was opened in 1898 by Jürg Müller.',
    [
      ['Opened', '1898'],
      ['Founder', 'Jürg Müller'],
      ['Address', 'Limmatquai 42, 8001 Zürich 🇨🇭'],
      ['Speciality', 'Crème brûlée'],
      ['Seats', '64'],
      ['Coffee', 'Café crème ☕'],
      ['Rating', '👍🏽 4.6 / 5'],
      ['Languages', 'Deutsch, Français, Italiano, English'],
      ['Opening hours', 'Mo–Sa 07:00–19:00'],
    ],
    ['interior.jpg', 'nusstorte.jpg'],
  ),
];
