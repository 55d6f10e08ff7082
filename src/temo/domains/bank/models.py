"""Records of the bank: clients (with their accounts and cards nested), loans, beneficiaries, transactions.

These pydantic models document the shape of every table in `data/db.json[.gz]`; a test validates every
record against them. Tools work on the plain JSON records, not on these classes.

Balances follow one rule everywhere (the generator and the tools keep it):
- checking and savings: ``available = current - on_hold``;
- credit: ``current`` is minus what is owed, and ``available = credit_limit + current - on_hold`` is the
  credit still free to use.
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel

from temo.domains.kit.records import ContactInfo, Name as _Name, PostalAddress, Strict

AccountType = Literal["checking", "savings", "credit"]
AccountStatus = Literal["active", "frozen", "closed"]
Currency = Literal["USD", "EUR", "GBP", "CAD"]
CardStatus = Literal["active", "blocked", "expired"]
TxType = Literal["deposit", "withdrawal", "transfer", "payment", "fee", "interest"]
TxMethod = Literal["ACH", "Wire", "Card", "ATM", "Internal"]
TxStatus = Literal["pending", "posted", "reversed"]
LoanType = Literal["mortgage", "auto", "personal", "credit_line"]
LoanStatus = Literal["active", "closed", "delinquent", "default"]
InstallmentStatus = Literal["due", "paid", "late", "deferred"]
VerificationStatus = Literal["pending", "verified", "failed"]
VerificationMethod = Literal["micro_deposits", "document", "instant"]
BeneficiaryStatus = Literal["active", "suspended", "revoked"]

# Why a card is blocked. The first two can be lifted by the client (through the agent); a card blocked
# as stolen or for suspected fraud has to be replaced, which only a human agent can arrange.
CARD_BLOCK_REASONS = ("lost", "temporary hold", "stolen", "suspected fraud")
CARD_UNBLOCKABLE = ("lost", "temporary hold")
CardBlockReason = Literal["lost", "temporary hold", "stolen", "suspected fraud"]
# Why an account is frozen. The client may freeze for the first three; "compliance review" is set by the
# bank itself and only a human agent can lift it.
ACCOUNT_FREEZE_REASONS = ("suspected fraud", "unrecognized activity", "customer request", "compliance review")
ACCOUNT_CLIENT_REASONS = ("suspected fraud", "unrecognized activity", "customer request")
AccountFreezeReason = Literal["suspected fraud", "unrecognized activity", "customer request", "compliance review"]


_Strict = Strict


class Name(_Name):
    middle_name: Optional[str] = None


Contact = ContactInfo


Address = PostalAddress


class Balance(_Strict):
    current: float
    available: float
    on_hold: float


class Features(_Strict):
    checks_enabled: bool
    atm_access: bool
    online_banking: bool


class Account(_Strict):
    account_id: str
    type: AccountType
    currency: Currency
    status: AccountStatus
    account_number_masked: str
    routing_number: str
    balance: Balance
    interest_rate_apr: float
    overdraft_limit: float
    credit_limit: Optional[float] = None  # credit accounts only
    opened_at: str
    features: Features
    freeze_reason: Optional[AccountFreezeReason] = None  # set while frozen


class CardInfo(_Strict):
    brand: Literal["Visa", "Mastercard"]
    last_four: str
    exp_month: int
    exp_year: int


class CardLimits(_Strict):
    daily_atm_limit: float
    daily_pos_limit: float


class Card(_Strict):
    card_id: str
    type: Literal["debit", "credit"]
    linked_account_id: str
    status: CardStatus
    issuer: str
    extra_info: CardInfo
    limits: CardLimits
    pin_set: bool
    block_reason: Optional[CardBlockReason] = None  # set while blocked


class Kyc(_Strict):
    status: Literal["verified", "pending", "expired"]
    last_reviewed_at: str
    tax_id_masked: str


class Client(_Strict):
    client_id: str
    name: Name
    contact: Contact
    address: Address
    accounts: dict[str, Account]
    cards: dict[str, Card]
    loan_ids: list[str]
    beneficiary_ids: list[str]
    created_at: str
    kyc: Kyc


class Merchant(_Strict):
    name: str
    mcc: str
    city: str
    country: str


class Fee(_Strict):
    type: str
    amount: float


class Hold(_Strict):
    is_hold: bool
    release_at: str
    reason: str


class Transaction(_Strict):
    transaction_id: str
    client_id: str
    account_id: str
    timestamp: str
    type: TxType
    direction: Literal["debit", "credit"]
    amount: float
    currency: Currency
    description: str
    method: TxMethod
    status: TxStatus
    merchant: Optional[Merchant] = None
    related_transaction_id: Optional[str] = None
    beneficiary_id: Optional[str] = None
    loan_id: Optional[str] = None
    fees: list[Fee]
    hold: Optional[Hold] = None
    balance_after: Optional[float] = None  # None while pending


class Collateral(_Strict):
    type: str
    description: str
    value_amount: float
    value_currency: Currency


class Installment(_Strict):
    due_date: str
    amount: float
    currency: Currency
    status: InstallmentStatus
    transaction_id: Optional[str] = None


class Repayment(_Strict):
    transaction_id: str
    posted_at: str
    amount: float
    currency: Currency
    method: Literal["Internal", "ACH"]
    principal_component: float
    interest_component: float
    fees_component: float


class Escrow(_Strict):
    balance: float
    currency: Currency
    monthly_contribution: float


class Loan(_Strict):
    loan_id: str
    client_id: str
    linked_repayment_account_id: str
    type: LoanType
    principal: float
    outstanding_balance: float
    currency: Currency
    interest_rate_apr: float
    amortization: Literal["fixed", "interest_only", "balloon"]
    term_months: int
    origination_date: str
    first_payment_date: str
    maturity_date: str
    status: LoanStatus
    collateral: Optional[Collateral] = None
    payment_schedule: list[Installment]
    repayment_history: list[Repayment]
    escrow: Optional[Escrow] = None


class BeneficiaryName(_Strict):
    display_name: str
    first_name: Optional[str] = None
    last_name: Optional[str] = None
    business_name: Optional[str] = None


class BankDetails(_Strict):
    bank_name: str
    account_number_masked: str
    routing_number: Optional[str] = None
    iban: Optional[str] = None
    swift_bic: Optional[str] = None


class TransferLimits(_Strict):
    per_transfer_limit: float
    daily_limit: float


class Verification(_Strict):
    status: VerificationStatus
    method: VerificationMethod
    verified_at: Optional[str] = None


class Beneficiary(_Strict):
    beneficiary_id: str
    client_id: str
    name: BeneficiaryName
    type: Literal["individual", "business"]
    bank_details: BankDetails
    address: Address
    allowed_from_account_ids: list[str]
    transfer_limits: TransferLimits
    verification: Verification
    status: BeneficiaryStatus
    created_at: str
    notes: str


TABLE_MODELS: dict[str, type[BaseModel]] = {
    "clients": Client,
    "loans": Loan,
    "beneficiaries": Beneficiary,
    "transactions": Transaction,
}
KEY_FIELDS = {"clients": "client_id", "loans": "loan_id", "beneficiaries": "beneficiary_id",
              "transactions": "transaction_id"}
