package textindex

// stopWordsDE are German articles, pronouns, prepositions, conjunctions,
// auxiliaries, modal verbs, particles and question words, including the
// spellings typed without umlauts ("fuer", "ueber", "koennen").
const stopWordsDE = `
aber ab alle allem allen aller alles als also am an andere anderem anderen anderer anderes anders auch auf aus
bei beim bin bis bist bitte bzw
da dabei dadurch dafür dagegen daher damals damit danach dann daran darauf daraus darf darfst darin darüber darum darunter das dass daß davon dazu dein deine deinem deinen deiner deines dem den denen denn dennoch der deren derer des dessen dich die dies diese diesem diesen dieser dieses dir doch dort du durch dürfen
eigentlich ein eine einem einen einer eines einige einigen einiger einiges einmal er es etwa etwas euch euer eure eurem euren eurer
für fuer
gegen gewesen gibt gab geben gegeben
hab habe haben hast hat hatte hätte hatten hätten her hier hin hinter
ich ihm ihn ihnen ihr ihre ihrem ihren ihrer ihres im immer in indem ins ist
ja je jede jedem jeden jeder jedes jedoch jene jenem jenen jener jenes jetzt
kann kannst kein keine keinem keinen keiner keines können koennen könnte koennte
man manche manchem manchen mancher manches mal mehr mein meine meinem meinen meiner meines mich mir mit möchte moechte möchten moechten muss musste müssen muessen
nach nachdem neben nein nicht nichts noch nun nur
ob oder ohne
s schon sehr sei seien sein seine seinem seinen seiner seines seit selbst sich sie sind so solche solchem solchen solcher solches soll sollen sollte sondern sonst sowie
über ueber um und uns unser unsere unserem unseren unserer unseres unter
viel viele vielen vom von vor
wann war waren warst warum was weil welche welchem welchen welcher welches wem wen wenn wer werde werden wessen wie wieder wieso wieviel wieviele will wir wird wirst wo wobei woher wohin wollen wollte worden wurde würde wuerde wurden würden wuerden
z zu zum zur zwar zwischen
hallo hi hey
`
