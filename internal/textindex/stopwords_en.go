package textindex

// stopWordsEN are English function words, auxiliaries, question words and
// the pieces that contractions split into ("don't" -> "don", "t"), plus
// casual forms typed without the apostrophe ("dont", "whats").
const stopWordsEN = `
a about above after again against all also am an and any are aren as at
be because been before being below between both but by
can cannot could couldn
did didn do does doesn doing don down during
each either else etc ever every
few for from further
had hadn has hasn have haven having he her here hers herself him himself his how however
i if in into is isn it its itself
just
let
many may me might more most much must mustn my myself
neither no nor not
of off often on once only or other others ought our ours ourselves out over own
please
quite
rather
same shall shan she should shouldn so some such
than that the their theirs them themselves then there therefore these they this those though through thus to too
under until up upon us
very via
was wasn we were weren what whatever when whenever where whereas wherever whether which while who whom whose why will with within without won would wouldn
yet you your yours yourself yourselves
s t d ll m re ve
dont doesnt didnt cant couldnt wont wouldnt shouldnt isnt arent wasnt werent
im ive id youre whats hows wheres whos thats theres
hi hello hey
`
