/* opmig: allow(rule-one) reason */
int x; // opmig: allow() nothing
<!-- opmig: allow(doc-rule) why -->
